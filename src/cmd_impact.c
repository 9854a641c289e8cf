/* cmd_impact.c - `granucal impact`: oblique impacts of spinning spheres on a frictional plane
 * (sec. 5.5, 8.4.2, appendix C) or on a second sphere, with the rigid-body prediction in the
 * same CSV. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "gc_io.h"
#include "impact_sim.h"
#include "timestep.h"

/* The options of `granucal impact` (rows of gc_impact_options). */
typedef struct {
  const char *nfd_name, *tfd_name, *card, *ratio, *roll_name, *out;
  gc_cli_list sets;
  double vn, vt, omega, omega2, dt;
  long count, ntcol;
  int rolling, mid_point, quiet, help;
} impact_opts;

#define ROW(field) .offset = offsetof(impact_opts, field)
const gc_cli_opt gc_impact_options[] = {
  GC_CLI_ROW_MODEL(ROW(nfd_name), "normal model (default: the card's 'model', else ep)"),
  GC_CLI_ROW_TFD(ROW(tfd_name),
                 "tangential model (default: the card's 'tfd', else the normal model's\n"
                 "own tangential part); friction mu from the card"),
  GC_CLI_ROW_CARD(ROW(card), "material card"),
  GC_CLI_ROW_SET(ROW(sets), "set one parameter (repeatable; applied after the card)"),
  GC_CLI_LAW_ROWS_NT(impact_opts, sets),
  GC_CLI_LAW_ROW_TWISTING(impact_opts, sets),
  { .name = "vn",
    .kind = GC_OPT_DOUBLE,
    .metavar = "V",
    .man_arg = "v",
    .lo = 0,
    .hi = 1e4,
    .lo_open = 1,
    .unit = "m/s",
    ROW(vn),
    .help = "normal impact speed [m/s] (> 0)" },
  { .name = "vt",
    .kind = GC_OPT_DOUBLE,
    .metavar = "VT",
    .man_arg = "vt",
    .lo = -1e4,
    .hi = 1e4,
    .unit = "m/s",
    ROW(vt),
    .help = "tangential velocity of the centre [m/s] (default 0)" },
  { .name = "omega",
    .kind = GC_OPT_DOUBLE,
    .metavar = "W",
    .man_arg = "w",
    .lo = -1e7,
    .hi = 1e7,
    .unit = "rad/s",
    ROW(omega),
    .help = "spin [rad/s] of a single sphere" },
  { .name = "ratio",
    .kind = GC_OPT_STRING,
    .metavar = "MIN,MAX",
    .man_arg = "\" min\" , max",
    ROW(ratio),
    .help = "v_n / v_st from MIN to MAX (log-spaced), the spin set accordingly" },
  { .name = "count",
    .kind = GC_OPT_LONG,
    .metavar = "N",
    .man_arg = "N",
    .lo = 1,
    .hi = 100000,
    ROW(count),
    .help = "spheres in the --ratio set (default 50)" },
  { .name = "omega2",
    .kind = GC_OPT_DOUBLE,
    .metavar = "W2",
    .man_arg = "w2",
    .lo = -1e7,
    .hi = 1e7,
    .unit = "rad/s",
    ROW(omega2),
    .help = "spin [rad/s] of sphere 2 (R2 > 0; default 0)" },
  { .name = "dt",
    .kind = GC_OPT_DOUBLE,
    .metavar = "DT",
    .man_arg = "dt",
    .lo = 0,
    .hi = 1,
    .lo_open = 1,
    .unit = "s",
    ROW(dt),
    .help = "time step [s]; default: Hertz contact duration (eq. 3.22) / ntcol" },
  { .name = "ntcol",
    .kind = GC_OPT_LONG,
    .metavar = "N",
    .man_arg = "N",
    .lo = GC_DT_REFUSE_NTCOL,
    .hi = 10000000,
    ROW(ntcol),
    .help = "steps per contact duration (default 200, in [10, 1e7]); a --dt\n"
            "above t_c/10 is refused" },
  { .name = "rolling",
    .kind = GC_OPT_FLAG,
    ROW(rolling),
    .help = "apply the rolling correction of sec. 5.2" },
  { .name = "mid-point",
    .kind = GC_OPT_FLAG,
    ROW(mid_point),
    .help = "contact point in the middle of the overlap (levers R - alpha/2,\n"
            "as granucal chute and the LAMMPS plugin); default: on the\n"
            "undeformed surfaces (levers R, R2; sec. 8.4)" },
  { .name = "rolling-model",
    .kind = GC_OPT_STRING,
    .metavar = "NAME",
    .man_arg = "name",
    ROW(roll_name),
    .help = "rolling resistance (none, spring, const; 'granucal models'):\n"
            "a couple against w1 - w2, parameters mu_r, beta_r, w_reg\n"
            "from the card / --set" },
  { .name = "output",
    .letter = 'o',
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "file",
    ROW(out),
    .help = "CSV (default: standard output)" },
  GC_CLI_ROW_QUIET(ROW(quiet), "no summary on standard error"),
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW
enum {
  ROW_VN = 4 + GC_CLI_LAW_NROWS - 1,
  ROW_OMEGA = ROW_VN + 2,
  ROW_DT = ROW_VN + 6,
  ROW_NTCOL,
  ROW_COUNT = ROW_VN + 14
};

static void impact_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal impact [-m NFD] [-t TFD] [-c CARD] [-s KEY=VALUE]... --vn V\n"
          "                       (--omega W | --ratio MIN,MAX [--count N]) [--vt VT]\n"
          "                       [--omega2 W2] [--dt DT | --ntcol N] [--rolling] [--mid-point]\n"
          "                       [--rolling-model none|spring|const] [-o OUT.csv] [-q]\n\n"
          "Oblique impacts of spheres on a frictional plane: every sphere arrives with the\n"
          "same normal speed and its own spin, so the incidence at the contact point differs\n"
          "(Walton's hard-sphere test, sec. 5.5 and 8.4.2).  One CSV row per sphere, with the\n"
          "rigid-body prediction for sliding collisions (eq. C.25) beside the simulation.\n"
          "Body 2 is a plane when R2 = 0 (rigid when E2 = 0, else deformable with E2, nu2) or,\n"
          "when R2 > 0, a second sphere (mass m2, or rho and R2) at rest with spin --omega2.\n\n");
  gc_cli_help_options(f, gc_impact_options, 21);
  fprintf(f,
          "\n"
          "Columns: omega [rad/s], v_st [m/s] (= v_t + omega R + omega2 R2), vn_over_vst,\n"
          "x (= f mu (1+e) v_n/v_st, f = 7/2 for homogeneous spheres), e, beta (= -v_st'/v_st,\n"
          "eq. 8.9), beta_sliding (eq. C.25 with the simulated e), tan_in (= v_st/v_n), tan_out\n"
          "(= v_st'/v_n'), P_max [N], Q_max [N], t_contact [s], sliding_steps, nonsimple_steps,\n"
          "v_t_out [m/s], omega_out [rad/s] (sphere 1 after), v_n2_out [m/s], v_t2_out [m/s],\n"
          "omega2_out [rad/s] (sphere 2 after, in the frame where it was at rest; 0 for a "
          "plane).\n");
}

int gc_cmd_impact(int argc, char **argv)
{
  const char *prog = "granucal impact";
  impact_opts o = { .count = 50 };
  gc_impact_cfg cfg;
  gc_impact_cfg_default(&cfg);
  if (gc_cli_list_alloc(&o.sets, argc, argv, 0))
    return 1;
  int seen[ROW_COUNT] = { 0 }, first_operand = 1;
  int parsed = gc_cli_parse(prog, gc_impact_options, argc, argv, &o, seen, &first_operand);
  if (parsed == GC_CLI_HELP)
    impact_usage(stdout);
  if (parsed) {
    free(o.sets.v);
    return parsed == GC_CLI_HELP ? 0 : parsed;
  }
  const char *nfd_name = o.nfd_name, *tfd_name = o.tfd_name, *card = o.card, *out = o.out;
  const char *ratio = o.ratio, *roll_name = o.roll_name;
  double vn = o.vn, vt = o.vt, omega = o.omega, omega2 = o.omega2;
  int have_vn = seen[ROW_VN], have_omega = seen[ROW_OMEGA], quiet = o.quiet;
  int have_dt = seen[ROW_DT], have_ntcol = seen[ROW_NTCOL];
  long count = o.count;
  if (have_dt)
    cfg.dt = o.dt;
  if (have_ntcol)
    cfg.ntcol = (int)o.ntcol;
  if (o.rolling)
    cfg.rolling = 1;
  if (o.mid_point)
    cfg.mid_point = 1;
  char **sets = o.sets.v;
  size_t nsets = o.sets.n;
  if (gc_cli_sets_check(prog, sets, nsets, argc, argv, first_operand)) {
    free(sets);
    return 2;
  }
  double rmin = 0, rmax = 0;
  if (ratio && gc_cli_double_pair(prog, "--ratio", ratio, 0, 1e6, 1, 0, "", &rmin, &rmax)) {
    free(sets);
    return 2;
  }
  const char *bad = NULL;
  if (first_operand < argc)
    bad = "unexpected argument";
  else if (!have_vn)
    bad = "--vn V with V > 0 [m/s] is required";
  else if (have_omega == (ratio != NULL))
    bad = "give exactly one of --omega or --ratio";
  else if (ratio && !(rmax >= rmin))
    bad = "--ratio MIN,MAX needs MIN <= MAX";
  else if (have_dt && have_ntcol)
    bad = "give --dt or --ntcol, not both";
  if (bad) {
    fprintf(stderr, "%s: %s%s%s\n", prog, bad, first_operand < argc ? " " : "",
            first_operand < argc ? argv[first_operand] : "");
    free(sets);
    return 2;
  }
  {
    const char *outs[] = { out }, *ins[] = { card };
    if (gc_cli_outputs_check(prog, outs, 1, ins, 1)) {
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
  cfg.mass = gc_cli_mass(&p, &x);
  cfg.radius = p.R1;
  if (!(cfg.mass > 0)) {
    fprintf(stderr, "%s: the sphere's mass is unknown: give m [kg] or rho [kg/m^3]\n", prog);
    return 1;
  }
  if (p.R2 > 0) {
    cfg.mass2 = gc_cli_mass2(&p, &x);
    cfg.radius2 = p.R2;
    if (!(cfg.mass2 > 0)) {
      fprintf(stderr, "%s: the mass of sphere 2 is unknown: give m2 [kg] or rho [kg/m^3]\n", prog);
      return 1;
    }
  } else if (omega2 != 0) {
    fprintf(stderr, "%s: --omega2 needs a second sphere (R2 > 0)\n", prog);
    return 2;
  }
  gc_cli_fill_effective_mass(&p, &x);
  rc = gc_cli_law(prog, nfd_name, tfd_name, &x, &p, card, &law);
  if (rc)
    return rc;
  if (roll_name) {
    const gc_submodel *rm = gc_submodel_lookup(GC_KIND_ROLLING, roll_name);
    if (!rm) {
      fprintf(stderr,
              "%s: --rolling-model '%s' is not a rolling model (none, spring, const; "
              "see 'granucal models')\n",
              prog, roll_name);
      return 2;
    }
    const gc_submodel *sub[GC_NKINDS];
    for (int k = 0; k < GC_NKINDS; k++)
      sub[k] = law.sub[k];
    sub[GC_KIND_ROLLING] = rm;
    const char *nn = law.name_normal, *nt = law.name_tangential;
    char lmsg[512];
    if (gc_law_init(&law, sub, &p, lmsg, sizeof lmsg)) {
      fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", lmsg);
      return 1;
    }
    law.name_normal = nn;
    law.name_tangential = nt;
  }
  if (!gc_law_frictional(&law)) {
    fprintf(stderr, "%s: an oblique impact needs a tangential model (--tfd)\n", prog);
    return 2;
  }

  char msg[512];
  {
    /* the time step against the contact duration of the normal approach, before any work */
    double m_red = p.R2 > 0 ? cfg.mass * cfg.mass2 / (cfg.mass + cfg.mass2) : cfg.mass, tc;
    if (gc_law_contact_time_msg(&law, m_red, vn, &tc, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
      return 1;
    }
    if (gc_impact_overlap_precheck(&law, m_red, vn, "E too small or v_n too large", msg,
                                   sizeof msg)) {
      fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
      return 1;
    }
    char what[96];
    snprintf(what, sizeof what, "the impact at v_n = %.4g m/s", vn);
    int k = gc_dt_check(cfg.dt > 0 ? cfg.dt : tc / cfg.ntcol, tc, what, msg, sizeof msg);
    if (k == GC_DT_REFUSE) {
      fprintf(stderr, "%s: --dt: %s\n", prog, msg);
      return 1;
    }
    if (k == GC_DT_WARN && !quiet)
      fprintf(stderr, "%s: warning: %s\n", prog, msg);
    snprintf(what, sizeof what, "the contact duration t_c at v_n = %.4g m/s", vn);
    if (gc_steps_check(cfg.dt > 0 ? cfg.dt : tc / cfg.ntcol, tc, what, tc / GC_DT_REFUSE_NTCOL,
                       GC_SEC_PER_CONTACT_STEP, msg, sizeof msg)) {
      fprintf(stderr, "%s: --dt: %s\n", prog, msg);
      return 1;
    }
  }
  gc_outfile of;
  if (gc_outfile_open(&of, out, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  fprintf(of.f,
          "omega [rad/s],v_st [m/s],vn_over_vst,x,e,beta,beta_sliding,tan_in,tan_out,"
          "P_max [N],Q_max [N],t_contact [s],sliding_steps,nonsimple_steps,"
          "v_t_out [m/s],omega_out [rad/s],v_n2_out [m/s],v_t2_out [m/s],omega2_out [rad/s]\n");
  const double f = gc_impact_slip_factor(&cfg);
  const double R2 = p.R2 > 0 ? p.R2 : 0.0;
  long n = have_omega ? 1 : count;
  int st = 0;
  for (long i = 0; i < n && !st; i++) {
    double w = omega;
    if (!have_omega) {
      double r = n > 1 ? rmin * pow(rmax / rmin, (double)i / (double)(n - 1)) : rmin;
      w = (vn / r - vt - omega2 * R2) / p.R1; /* v_st = v_t + w R + w2 R2 = v_n / r */
    }
    gc_impact_result r;
    st = gc_impact_run2(&law, &cfg, vn, vt, w, omega2, &r);
    if (st == GC_EPHYS && gc_law_overlap_check(&law, r.t_contact, r.alpha_max,
                                               "E too small or v_n too large", msg, sizeof msg)) {
      fprintf(stderr, "%s: impact with omega = %g rad/s: %s; refusing the result\n", prog, w, msg);
      break;
    }
    if (st == GC_EPHYS) {
      fprintf(stderr,
              "%s: impact with omega = %g rad/s: the kinetic energy after the impact, "
              "%.6g J, is %.4g times the %.6g J before: the contact created energy, which no "
              "passive contact law may do; refusing the result (models %s + %s, mu = %g, "
              "dt = %.4g s; %s)\n",
              prog, w, r.ke_out, r.ke_out / r.ke_in, r.ke_in, law.name_normal, law.name_tangential,
              p.mu, r.dt,
              "a time step too coarse for the tangential stiffness (a smaller --dt), or a mu "
              "so large that the contact never slips: the varying-P transitions of tfd vqz / ep "
              "(eq. 3.26-3.64) release mu |dP| per step, more than such a contact carries "
              "(a smaller mu, or tfd md / mindlin)");
      break;
    }
    if (st) {
      fprintf(stderr, "%s: impact with omega = %g rad/s failed: %s\n", prog, w, gc_strerror(st));
      break;
    }
    if (r.e > 1.0 + GC_E_TOL || !isfinite(r.e) || !isfinite(r.beta)) {
      fprintf(stderr,
              "%s: impact with omega = %g rad/s: e = %.6g, beta = %.6g: %s; refusing the "
              "result\n",
              prog, w, r.e, r.beta,
              isfinite(r.e) && isfinite(r.beta) ? "the normal contact created energy (e > 1)"
                                                : "a non-finite result");
      st = GC_EINVAL;
      break;
    }
    double ratio_i = r.v_st != 0 ? vn / r.v_st : INFINITY;
    double xval = f * p.mu * (1.0 + r.e) * ratio_i;
    double bslide = r.v_st != 0 ? gc_beta_sliding_f(f, p.mu, r.e, vn, r.v_st) : NAN;
    double tan_out = r.v_n_out != 0 ? r.v_st_out / r.v_n_out : NAN;
    fprintf(of.f,
            "%.10g,%.10g,%.10g,%.10g,%.8f,%.8f,%.8f,%.10g,%.10g,%.10g,%.10g,%.10g,%ld,%ld,"
            "%.10g,%.10g,%.10g,%.10g,%.10g\n",
            w, r.v_st, ratio_i, xval, r.e, r.beta, bslide, r.v_st / vn, tan_out, r.P_max, r.Q_max,
            r.t_contact, r.n_sliding, r.n_nonsimple, r.v_t_out, r.omega_out, r.v_n2_out, r.v_t2_out,
            r.omega2_out);
    if (!quiet && (n == 1 || i == 0 || i == n - 1))
      fprintf(stderr,
              "v_n/v_st = %.4g: e = %.5f, beta = %.5f (sliding theory %.5f), "
              "non-simple steps %ld\n",
              ratio_i, r.e, r.beta, bslide, r.n_nonsimple);
  }
  if (st) {
    gc_outfile_abort(&of);
    return 1;
  }
  if (gc_outfile_commit(&of, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  return 0;
}
