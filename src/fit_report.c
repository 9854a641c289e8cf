/* fit_report.c - what `granucal fit` writes: the summary, the parameter file (the key = value
 * format of gc_card_read) and the --report directory with CSVs and gnuplot PNGs. */
#include "fit.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gc_io.h"

/* A parameter at (or within 1e-6 relative of) one of its bounds. */
static int at_bound(const gc_fit_problem *pb, const double *p, int j)
{
  if (!pb->set.is_free[j])
    return 0;
  if (p[j] <= pb->set.lo[j] * (1 + 1e-6))
    return -1;
  if (p[j] >= pb->set.hi[j] * (1 - 1e-6))
    return 1;
  return 0;
}

/* F at the trial values: w_a + w_e, less the weight of a missing kind of data */
static double F_trial(const gc_fit_problem *pb)
{
  return (pb->Fa_ref > 0 ? pb->set.w_a : 0.0) + (pb->Fe_ref > 0 ? pb->set.w_e : 0.0);
}

/* Direction of point i of load-path file f: 0 for the file's first point (no step leads to
 * it), +1 on loading (alpha not decreasing from the previous point), -1 on unloading.  The
 * error table, paths.csv and the plot's filled / open symbols all use this split. */
static int path_branch(const gc_fit_data *d, size_t f, size_t i)
{
  if (i == d->path_start[f])
    return 0;
  return d->path_alpha[i] >= d->path_alpha[i - 1] ? 1 : -1;
}

/* Force errors of one load-path file, model Pp against the measured P: RMS and largest
 * |P_model - P| on loading and on unloading, and the RMS over both (the first point, which no
 * step leads to, in neither). */
typedef struct {
  size_t n, nl, nu;                       /* points of the file, on loading, on unloading */
  double rms_l, max_l, rms_u, max_u, rms; /* [N] */
} path_err;

static void path_errors(const gc_fit_data *d, const double *Pp, size_t f, path_err *e)
{
  double sl = 0, su = 0;
  memset(e, 0, sizeof *e);
  e->n = d->path_start[f + 1] - d->path_start[f];
  for (size_t i = d->path_start[f]; i < d->path_start[f + 1]; i++) {
    double r = Pp[i] - d->path_P[i];
    int b = path_branch(d, f, i);
    if (b > 0) {
      sl += r * r;
      e->max_l = fmax(e->max_l, fabs(r));
      e->nl++;
    } else if (b < 0) {
      su += r * r;
      e->max_u = fmax(e->max_u, fabs(r));
      e->nu++;
    }
  }
  e->rms_l = e->nl ? sqrt(sl / (double)e->nl) : 0.0;
  e->rms_u = e->nu ? sqrt(su / (double)e->nu) : 0.0;
  e->rms = e->nl + e->nu ? sqrt((sl + su) / (double)(e->nl + e->nu)) : 0.0;
}

void gc_fit_print_summary(FILE *f, gc_fit_problem *pb, const gc_fit_options *o,
                          const gc_fit_result *res, const gc_fit_ident *id, const gc_fit_verdict *v)
{
  const gc_fit_data *d = pb->data;
  const gc_fit_setup *s = &pb->set;
  const double *p = res->p;
  fprintf(f, "granucal fit: normal model '%s' (%s) of a sphere on a rigid plane, appendix E\n",
          s->model->name, s->model->description);
  fprintf(f, "  data       %zu compression points%s%s%s, %zu drops%s%s%s\n", d->n_comp,
          d->comp_path[0] ? " (" : "", d->comp_path, d->comp_path[0] ? ")" : "", d->n_drop,
          d->drop_path[0] ? " (" : "", d->drop_path, d->drop_path[0] ? ")" : "");
  if (d->n_path) {
    fprintf(f,
            "             %zu load-path points in %zu file%s, replayed through the contact "
            "driver:",
            d->n_path, d->n_path_files, d->n_path_files == 1 ? "" : "s");
    for (size_t k = 0; k < d->n_path_files && k < 8; k++)
      fprintf(f, " %s", d->path_paths[k]);
    fprintf(f, "%s\n", d->n_path_files > 8 ? " ..." : "");
  }
  fprintf(f, "  particle   R = %g m, m = %g kg; drops by leap-frog, dt = %g s, %s\n", s->base.R1,
          s->mass, s->drop.dt, s->drop.g > 0 ? "with gravity" : "no gravity");
  fprintf(f,
          "  objective  F = %g F_a/F_a(trial) + %g F_e/F_e(trial) (eq. E.5-E.7), F_a(trial) = "
          "%.5g N^2, F_e(trial) = %.5g%s\n",
          s->w_a, s->w_e, pb->Fa_ref, pb->Fe_ref,
          s->point_weights == GC_FIT_PW_COUNT ? ", drops weighted by n"
          : s->point_weights == GC_FIT_PW_SD  ? ", drops weighted by 1/sd^2"
                                              : "");
  fprintf(f, "  solver     %s: %s\n", gc_fit_alg_name(o->algorithm),
          gc_fit_alg_description(o->algorithm));
  if (gc_fit_alg_is_global(o->algorithm))
    fprintf(f, "             polished by %s\n",
            o->polish >= 0 ? gc_fit_alg_name(o->polish) : "none");
  if (o->algorithm == GC_FIT_SD)
    fprintf(f, "             delta = %g, eps = %g\n", o->sd_delta, o->sd_eps);
  if (o->starts > 1)
    fprintf(f, "             %d starts (seed %lu), best: start %d\n", o->starts, o->seed,
            res->best_start);
  fprintf(f, "  result     F = %.7g (%g at the trial values), F_a = %.5g N^2, F_e = %.5g\n",
          res->val.F, F_trial(pb), res->val.Fa, res->val.Fe);
  fprintf(f, "             %ld objective evaluations, %ld iterations, %.3f s wall time%s\n",
          res->nevals, res->niter, res->seconds, res->nfail ? "" : "");
  fprintf(f, "             stopped: %s%s\n", res->stop, res->converged ? "" : " (not converged)");
  if (res->nfail)
    fprintf(f, "             %ld evaluations where the model failed were penalised\n", res->nfail);

  fprintf(f, "\n  %-10s %-6s %13s %13s   %-27s %s\n", "parameter", "unit", "initial", "fitted",
          "95 % interval (linearised)", "status");
  for (int j = 0; j < s->npar; j++) {
    char ci[64] = "", status[96];
    if (s->is_free[j] && id) {
      if (at_bound(pb, p, j) && isfinite(id->ci_hi[j]))
        snprintf(ci, sizeof ci, "(at a bound)");
      else if (isfinite(id->ci_hi[j]))
        snprintf(ci, sizeof ci, "[%.4g, %.4g]", id->ci_lo[j], id->ci_hi[j]);
      else
        snprintf(ci, sizeof ci, "not identifiable");
    }
    int b = at_bound(pb, p, j);
    if (v && v->held[j])
      snprintf(status, sizeof status, "held: not determined (see the verdict)");
    else if (!s->is_free[j])
      snprintf(status, sizeof status, "fixed");
    else if (b)
      snprintf(status, sizeof status, "AT %s BOUND %g", b < 0 ? "LOWER" : "UPPER",
               b < 0 ? s->lo[j] : s->hi[j]);
    else
      snprintf(status, sizeof status, "free in [%g, %g]", s->lo[j], s->hi[j]);
    fprintf(f, "  %-10s %-6s %13.6g %13.6g   %-27s %s\n", gc_fit_name(&pb->set, j),
            gc_fit_unit(&pb->set, j), s->trial[j], p[j], ci, status);
  }
  const int iE = gc_fit_find(s, GC_PAR_E1), inu = gc_fit_find(s, GC_PAR_NU1);
  const int Enu = iE >= 0 && inu >= 0; /* E* = E/(1-nu^2) is what a Hertz-type model sees */
  double nu = inu >= 0 ? p[inu] : s->base.nu1, Es = (iE >= 0 ? p[iE] : s->base.E1) / (1 - nu * nu);
  double sY, AY;
  if (!Enu)
    ;
  else if (id && isfinite(id->Estar_hi) && id->Estar_hi > id->Estar_lo)
    fprintf(f, "  %-10s %-6s %13s %13.6g   [%.4g, %.4g]\n", "E*", "Pa", "", Es, id->Estar_lo,
            id->Estar_hi);
  else
    fprintf(f, "  %-10s %-6s %13s %13.6g\n", "E*", "Pa", "", Es);
  if (gc_fit_yield_stress(s, p, &sY, &AY) == GC_SUCCESS)
    fprintf(f, "  %-10s %-6s %13s %13.6g   (eq. E.16 / 6.19 from P_Y, A_Y(nu) = %.4f)\n", "sY",
            "Pa", "", sY, AY);

  double *Pm = malloc((d->n_comp ? d->n_comp : 1) * sizeof *Pm);
  gc_drop_result *dr = malloc((d->n_drop ? d->n_drop : 1) * sizeof *dr);
  if (Pm && dr && gc_fit_predict(pb, p, Pm, dr) == GC_SUCCESS) {
    if (d->n_comp) {
      fprintf(f, "\n  compression %12s %11s %11s %12s %8s\n", "alpha [m]", "P [N]", "model [N]",
              "model - P", "rel");
      for (size_t i = 0; i < d->n_comp; i++)
        fprintf(f, "  %-11zu %12.5g %11.5g %11.5g %12.4g %7.2f%%\n", i + 1, d->alpha[i], d->P[i],
                Pm[i], Pm[i] - d->P[i], d->P[i] > 0 ? 100 * (Pm[i] - d->P[i]) / d->P[i] : 0.0);
    }
    if (d->n_drop) {
      fprintf(f, "\n  drops       %12s %11s %11s %12s %8s\n", "v_in [m/s]", "e", "model",
              "model - e", "P_max [N]");
      for (size_t k = 0; k < d->n_drop; k++)
        fprintf(f, "  %-11zu %12.5g %11.5g %11.5f %12.5f %8.4g\n", k + 1, d->v_in[k], d->e[k],
                dr[k].e_vel, dr[k].e_vel - d->e[k], dr[k].P_max);
    }
  }
  free(Pm);
  free(dr);
  if (d->n_path) {
    double *Pp = malloc(d->n_path * sizeof *Pp);
    if (Pp && gc_fit_predict_path(pb, p, Pp) == GC_SUCCESS) {
      fprintf(f, "\n  load path   %6s %12s %12s %12s %12s  file\n", "points", "rms load [N]",
              "max load [N]", "rms unl. [N]", "max unl. [N]");
      for (size_t k = 0; k < d->n_path_files; k++) {
        path_err e;
        path_errors(d, Pp, k, &e);
        fprintf(f, "  %-11zu %6zu %12.4g %12.4g %12.4g %12.4g  %s\n", k + 1, e.n, e.rms_l, e.max_l,
                e.rms_u, e.max_u, k < 8 ? d->path_paths[k] : "");
      }
    }
    free(Pp);
  }

  if (!id)
    return;
  fprintf(f, "\nidentifiability (Jacobian of the weighted residuals wrt ln p at the result):\n");
  fprintf(f, "  singular values, all %s parameters:",
          s->npar == 5   ? "five"
          : s->npar == 4 ? "four"
          : s->npar == 3 ? "three"
          : s->npar == 2 ? "two"
                         : "the");
  for (int k = 0; k < s->npar; k++)
    fprintf(f, " %.3g", id->sv_all[k]);
  fprintf(f, "\n  direction of the smallest one (");
  for (int j = 0; j < s->npar; j++)
    fprintf(f, "%s%s", j ? ", " : "", gc_fit_name(s, j));
  fprintf(f, "):");
  for (int j = 0; j < s->npar; j++)
    fprintf(f, " %+.3f", id->null_all[j]);
  fprintf(f, "\n");
  if (Enu) {
    fprintf(f,
            "  E and nu are NOT separable from these data: the normal model depends on them only\n"
            "  through E* = E/(1-nu^2)%s.\n"
            "  Changing nu at fixed E* changes the residuals by %.2g of what the same change of "
            "E*\n"
            "  does.  Only E* is determined: fix one of E and nu and fit the other",
            gc_fit_find(s, GC_PAR_P_Y) >= 0
                ? " (P_Y is a fitted force, so nu does not enter through A_Y)"
                : "",
            id->nu_at_fixed_Estar);
    if (s->is_free[iE] && s->is_free[inu])
      fprintf(f,
              " (e.g. --fix nu=0.4).\n  Here both are free: their correlation is %+.4f, their "
              "individual values are arbitrary\n  along E/(1-nu^2) = %.5g Pa.\n",
              id->Enu_corr, Es);
    else
      fprintf(f, " (done here:\n  %s is fixed).\n", s->is_free[inu] ? "E" : "nu");
  }
  fprintf(f, "  free parameters:");
  for (int a = 0; a < pb->nfree; a++)
    fprintf(f, " %s", gc_fit_name(&pb->set, pb->idx[a]));
  fprintf(f, "; singular values");
  for (int a = 0; a < pb->nfree; a++)
    fprintf(f, " %.3g", id->sv_free[a]);
  fprintf(f, "; condition number %.3g%s\n", id->cond_free,
          id->rank_deficient ? " (numerically rank deficient)" : "");
  fprintf(f, "  correlations of the free ln p:\n  %8s", "");
  for (int b = 0; b < pb->nfree; b++)
    fprintf(f, " %8s", gc_fit_name(&pb->set, pb->idx[b]));
  fprintf(f, "\n");
  for (int a = 0; a < pb->nfree; a++) {
    fprintf(f, "  %8s", gc_fit_name(&pb->set, pb->idx[a]));
    for (int b = 0; b < pb->nfree; b++)
      fprintf(f, " %+8.3f", id->corr[a * GC_FIT_MAXPAR + b]);
    fprintf(f, "\n");
  }
  if (id->dof > 0)
    fprintf(f,
            "  intervals: linearised, residual variance F/(n - p) = %.3g with %d degrees of "
            "freedom, t = %.3f\n",
            id->s2, id->dof, id->tq);
  else
    fprintf(f, "  intervals: none (%zu residuals for %d parameters leave no degrees of freedom)\n",
            id->n_res, id->nfree);
  int notes = 0;
  for (int j = 0; j < s->npar; j++) {
    int b = at_bound(pb, p, j);
    if (s->is_free[j] && !isfinite(id->se_log[j]) && !(Enu && (j == iE || j == inu))) {
      fprintf(f,
              "  note: %s is not identifiable from these data: the residuals hardly depend on it,\n"
              "        so its value is arbitrary%s; fix it (--fix %s=VALUE).\n",
              gc_fit_name(&pb->set, j), b ? " (here it stopped at a bound)" : "",
              gc_fit_name(&pb->set, j));
      notes++;
    } else if (b) {
      fprintf(f,
              "  note: %s is at its %s bound: the data push it further, so its interval is not "
              "meaningful;\n        widen the bound (--bounds %s=LO:HI) or fix it (--fix "
              "%s=VALUE).\n",
              gc_fit_name(&pb->set, j), b < 0 ? "lower" : "upper", gc_fit_name(&pb->set, j),
              gc_fit_name(&pb->set, j));
      notes++;
    } else if (s->is_free[j] && isfinite(id->ci_hi[j]) && id->ci_lo[j] > 0 &&
               id->ci_hi[j] / id->ci_lo[j] > 10) {
      fprintf(f, "  note: %s is poorly determined (its interval spans a factor %.3g).\n",
              gc_fit_name(&pb->set, j), id->ci_hi[j] / id->ci_lo[j]);
      notes++;
    }
  }
  (void)notes;
}

int gc_fit_write_params(FILE *f, const gc_fit_problem *pb, const gc_fit_result *res,
                        const gc_card_extra *x, const char *comment)
{
  const gc_fit_setup *s = &pb->set;
  gc_params q;
  const double *p = res->p;
  gc_fit_params_at(s, p, &q);
  double sY = 0, AY = 0;
  int have_sY = gc_fit_yield_stress(s, p, &sY, &AY) == GC_SUCCESS;
  if (have_sY)
    q.sY1 = sY;
  gc_card_extra e;
  gc_card_extra_default(&e);
  if (x)
    e = *x;
  snprintf(e.nfd, sizeof e.nfd, "%s", s->model->name);
  if (!(e.mass > 0) && !(e.rho > 0))
    e.mass = s->mass;
  fprintf(f,
          "# granucal parameter file (key = value, see granucal-params(5)): normal model '%s'\n"
          "# (%s) fitted by `granucal fit` (dissertation appendix E).\n",
          s->model->name, s->model->description);
  /* the comment (provenance: version, command, date, input checksums), one "# " per line */
  for (const char *q = comment; q && *q;) {
    const char *e = strchr(q, '\n');
    int l = e ? (int)(e - q) : (int)strlen(q);
    fprintf(f, "# %.*s\n", l, q);
    q += l + (e != NULL);
  }
  fprintf(f, "# objective F = %.7g (eq. E.5; %g at the trial values) after %ld evaluations\n",
          res->val.F, F_trial(pb), res->nevals);
  if (gc_fit_find(s, GC_PAR_E1) >= 0 && gc_fit_find(s, GC_PAR_NU1) >= 0)
    fprintf(f,
            "# E* = E/(1-nu^2) = %.6g Pa is what the data determine; E and nu are not separable.\n",
            q.E1 / (1 - q.nu1 * q.nu1));
  if (have_sY)
    fprintf(f,
            "# sY = %.6g Pa is derived from P_Y by eq. E.16 (A_Y(nu) = %.4f); P_Y > 0 takes "
            "precedence when read.\n",
            sY, AY);
  int st = gc_card_write(f, &q, &e);
  return st ? st : (ferror(f) ? GC_EIO : GC_SUCCESS);
}

/* ---------------------------------------------------------------- --report */

/* The gnuplot script of a report.  It is preceded by the lines
 *   solver = '<name>'; has_sd = 0|1; has_n = 0|1; nstarts = N; chosen = K; has_hertz = 0|1
 * has_comp = 0|1; has_drop = 0|1; npath = N
 *   array PN[N] = ['<legend of file 1>', ...]
 * written by gc_fit_write_report. */
static const char plot_script[] =
    "# plot-fit.gp - plots of a `granucal fit --report` directory; run from inside it:\n"
    "#   gnuplot plot-fit.gp\n"
    "# Inputs: compression.csv, compression-model.csv, restitution.csv, restitution-model.csv,\n"
    "# paths.csv, convergence.csv (written by granucal fit).  Outputs: compression.png (P vs "
    "alpha,\n"
    "# data, model and Hertz as in fig. E.8, residuals below), restitution.png (e vs v_in as in\n"
    "# fig. E.9, residuals below), paths.png (P vs alpha along the load paths, data and model,\n"
    "# residuals below), convergence.png (objective vs evaluations, every start).  A panel whose\n"
    "# data the fit did not have (has_comp, has_drop, npath above) is skipped: gnuplot fails on a\n"
    "# plot without a valid point.\n"
    "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
    "  set terminal pngcairo size 900,760 noenhanced font 'Sans,11' linewidth 1.5\n"
    "} else {\n"
    "  set terminal png size 900,760 noenhanced\n"
    "}\n"
    "set datafile separator ','\n"
    "set datafile commentschars '#'\n"
    "set grid\n"
    "set border 3\n"
    "set tics nomirror\n"
    "set lmargin 12\n"
    "# displacements in micrometres: the micro sign where the terminal draws UTF-8 (pngcairo)\n"
    "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set encoding utf8; um = '\xc2\xb5"
    "m' } else { um = 'um' }\n"
    "# Okabe-Ito colours (colour-blind safe, as in the other plots), one per load-path file\n"
    "array OI[7] = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000']\n"
    "oi(k) = OI[(k - 1) % 7 + 1]\n"
    "\n"
    "# --- compression: P against alpha in micrometres, residuals below\n"
    "if (has_comp) {\n"
    "  set output 'compression.png'\n"
    "  set multiplot\n"
    "  set origin 0, 0.3\n"
    "  set size 1, 0.7\n"
    "  set key top left Left reverse box opaque\n"
    "  set title 'Compression test: normal force vs single-side displacement (cf. fig. E.8)'\n"
    "  set xlabel ''\n"
    "  set ylabel 'P [N]'\n"
    "  plot 'compression-model.csv' skip 1 using ($1*1e6):2 with lines lw 2 lc rgb '#0072b2' title "
    "'model (fitted)', \\\n"
    "       '' skip 1 using ($1*1e6):(has_hertz ? $3 : 1/0) with lines dt 2 lw 1.5 lc rgb "
    "'#d55e00' title (has_hertz ? 'Hertz (same E*)' : ''), \\\n"
    "       'compression.csv' skip 1 using ($1*1e6):2 with points pt 7 ps 1.3 lc rgb 'black' title "
    "'data'\n"
    "  set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n"
    "  set offsets 0, 0, graph 0.15, graph 0.15\n"
    "  set origin 0, 0\n"
    "  set size 1, 0.3\n"
    "  unset title\n"
    "  set xlabel sprintf('alpha [%s]', um)\n"
    "  set ylabel 'model - data [N]'\n"
    "  set xzeroaxis lt -1\n"
    "  unset key\n"
    "  plot 'compression.csv' skip 1 using ($1*1e6):($3-$2) with impulses lw 2 lc rgb '#0072b2', "
    "\\\n"
    "       '' skip 1 using ($1*1e6):($3-$2) with points pt 7 lc rgb '#0072b2'\n"
    "  unset multiplot\n"
    "  unset xzeroaxis\n"
    "  set autoscale x\n"
    "  set offsets 0, 0, 0, 0\n"
    "}\n"
    "\n"
    "# --- restitution: e against v_in, scaled to data and model (Hertz is e = 1, off the\n"
    "# scale), error bars +-sd where the file gives sd, n beside each point where it gives n\n"
    "if (has_drop) {\n"
    "  set output 'restitution.png'\n"
    "  set multiplot\n"
    "  set origin 0, 0.3\n"
    "  set size 1, 0.7\n"
    "  set key top right box opaque\n"
    "  set title 'Drop test: coefficient of restitution vs impact velocity (cf. fig. E.9)'\n"
    "  set xlabel ''\n"
    "  set ylabel 'e'\n"
    "  set offsets 0, 0, graph 0.08, graph 0.08\n"
    "  plot 'restitution-model.csv' skip 1 using 1:2 with lines lw 2 lc rgb '#0072b2' title 'model "
    "(fitted); Hertz: e = 1', \\\n"
    "       'restitution.csv' skip 1 using 1:2:(has_sd ? $5 : 0) with yerrorbars pt 7 ps 1.3 lc "
    "rgb 'black' title (has_sd ? 'data +- sd' : 'data'), \\\n"
    "       '' skip 1 using 1:3 with points pt 6 ps 1.8 lc rgb '#d55e00' title 'model at the "
    "data', \\\n"
    "       '' skip 1 using 1:2:(has_n ? sprintf('  n = %d', int($6)) : '') with labels left "
    "offset 1,0 notitle\n"
    "  set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n"
    "  set offsets 0, 0, graph 0.15, graph 0.15\n"
    "  set origin 0, 0\n"
    "  set size 1, 0.3\n"
    "  unset title\n"
    "  set xlabel 'v_in [m/s]'\n"
    "  set ylabel 'model - data'\n"
    "  set xzeroaxis lt -1\n"
    "  unset key\n"
    "  plot 'restitution.csv' skip 1 using 1:($3-$2) with impulses lw 2 lc rgb '#0072b2', \\\n"
    "       '' skip 1 using 1:($3-$2) with points pt 7 lc rgb '#0072b2'\n"
    "  unset multiplot\n"
    "  unset xzeroaxis\n"
    "  set autoscale x\n"
    "  set offsets 0, 0, 0, 0\n"
    "}\n"
    "\n"
    "# --- load paths (FEA curves, cyclic tests): P against alpha in micrometres, one colour per\n"
    "# file; measured as points, filled on loading and open on unloading (paths.csv: branch +1 / "
    "-1,\n"
    "# 0 for a file's first point), the model replayed along the measured displacements as a "
    "line;\n"
    "# below, model - measured against alpha with the same symbols, a thin line following each "
    "path\n"
    "if (npath > 0) {\n"
    "  set output 'paths.png'\n"
    "  set multiplot\n"
    "  set origin 0, 0.35\n"
    "  set size 1, 0.65\n"
    "  set key top left Left reverse box opaque\n"
    "  set title 'Load paths: normal force vs single-side displacement, model replayed along the "
    "data'\n"
    "  set xlabel ''\n"
    "  set ylabel 'P [N]'\n"
    "  plot for [k=1:npath] 'paths.csv' skip 1 using ($1 == k ? $4*1e6 : 1/0):6 with lines lw 2 lc "
    "rgb oi(k) title PN[k], \\\n"
    "       for [k=1:npath] '' skip 1 using ($1 == k && $7 >= 0 ? $4*1e6 : 1/0):5 with points pt 7 "
    "ps 0.8 lc rgb oi(k) notitle, \\\n"
    "       for [k=1:npath] '' skip 1 using ($1 == k && $7 < 0 ? $4*1e6 : 1/0):5 with points pt 6 "
    "ps 1.0 lc rgb oi(k) notitle, \\\n"
    "       keyentry with lines lw 2 lc rgb 'grey40' title 'model (lines)', \\\n"
    "       keyentry with points pt 7 ps 0.8 lc rgb 'grey40' title 'measured, loading', \\\n"
    "       keyentry with points pt 6 ps 1.0 lc rgb 'grey40' title 'measured, unloading'\n"
    "  set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n"
    "  set offsets 0, 0, graph 0.1, graph 0.1\n"
    "  set origin 0, 0\n"
    "  set size 1, 0.35\n"
    "  unset title\n"
    "  set xlabel sprintf('alpha [%s]', um)\n"
    "  set ylabel 'model - measured [N]'\n"
    "  set xzeroaxis lt -1\n"
    "  unset key\n"
    "  plot for [k=1:npath] 'paths.csv' skip 1 using ($1 == k ? $4*1e6 : 1/0):($6-$5) with lines "
    "lw 0.6 lc rgb oi(k), \\\n"
    "       for [k=1:npath] '' skip 1 using ($1 == k && $7 >= 0 ? $4*1e6 : 1/0):($6-$5) with "
    "points pt 7 ps 0.7 lc rgb oi(k), \\\n"
    "       for [k=1:npath] '' skip 1 using ($1 == k && $7 < 0 ? $4*1e6 : 1/0):($6-$5) with points "
    "pt 6 ps 0.9 lc rgb oi(k)\n"
    "  unset multiplot\n"
    "  unset xzeroaxis\n"
    "  set autoscale x\n"
    "  set offsets 0, 0, 0, 0\n"
    "}\n"
    "\n"
    "# --- convergence: every start of a multi-start run (issue 13), one line each against the\n"
    "# objective evaluations of that start (comparable between solvers: gradient and Jacobian\n"
    "# evaluations count), the chosen start drawn thick and in colour, the others thin and grey;\n"
    "# F on a log scale (starts far from the optimum are orders of magnitude higher).  Below, the\n"
    "# excess over the final F of the chosen start, on a log scale, shows the rate.\n"
    "# convergence.csv: one block per start (blocks separated by two blank lines: gnuplot's "
    "index).\n"
    "set output 'convergence.png'\n"
    "set multiplot\n"
    "set origin 0, 0.45\n"
    "set size 1, 0.55\n"
    "set lmargin 12\n"
    "set title sprintf('Objective (eq. E.5) of the %s fit: %d start%s, start %d chosen', solver, "
    "nstarts, nstarts > 1 ? 's' : '', chosen)\n"
    "set xlabel ''\n"
    "# log scale when F spans more than a factor 20 (a narrow range gets linear, labelled tics)\n"
    "stats 'convergence.csv' skip 1 using ($4 > 0 ? $4 : 1/0) nooutput\n"
    "if (STATS_max > 20 * STATS_min) {\n"
    "  set logscale y; set format y '%.0e'; set ylabel 'best F so far (log)'\n"
    "} else {\n"
    "  unset logscale y; set format y '%.3g'; set ylabel 'best F so far'\n"
    "}\n"
    "set key top right box opaque\n"
    "grey = '#b0b0b0'\n"
    "first_other = (chosen == 1 ? 2 : 1)\n"
    "plot for [i=1:nstarts] 'convergence.csv' skip 1 index (i-1) using 3:($4 > 0 ? $4 : 1/0) with "
    "steps lw 1 lc rgb grey title (i == first_other && i != chosen ? sprintf('other starts (%d)', "
    "nstarts - 1) : ''), \\\n"
    "     'convergence.csv' skip 1 index (chosen-1) using 3:($4 > 0 ? $4 : 1/0) with steps lw 3 lc "
    "rgb '#0072b2' title sprintf('start %d (chosen)', chosen)\n"
    "set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n"
    "set origin 0, 0\n"
    "set size 1, 0.45\n"
    "unset title\n"
    "set xlabel 'objective evaluations of the start (gradient and Jacobian evaluations included)'\n"
    "set ylabel 'F - F_final (log)'\n"
    "set logscale y\n"
    "set format y '%.0e'\n"
    "stats 'convergence.csv' skip 1 index (chosen-1) using 4 nooutput\n"
    "Ffin = STATS_min\n"
    "thr(F) = (F - Ffin) > 1e-12 * abs(Ffin) ? F - Ffin : 1/0\n"
    "unset key\n"
    "plot for [i=1:nstarts] 'convergence.csv' skip 1 index (i-1) using 3:(thr($4)) with steps lw 1 "
    "lc rgb grey, \\\n"
    "     'convergence.csv' skip 1 index (chosen-1) using 3:(thr($4)) with steps lw 3 lc rgb "
    "'#0072b2'\n"
    "unset logscale y\n"
    "set format y '%g'\n"
    "unset multiplot\n"
    "set output\n";

/* The legend name of load-path file k: the base name of its path (only the first 8 paths are
 * kept, see gc_fit_data), else "file k". */
static void path_label(const gc_fit_data *d, size_t k, char *buf, size_t n)
{
  if (k < sizeof d->path_paths / sizeof d->path_paths[0] && d->path_paths[k][0]) {
    const char *b = strrchr(d->path_paths[k], '/');
    snprintf(buf, n, "%s", b ? b + 1 : d->path_paths[k]);
  } else
    snprintf(buf, n, "file %zu", k + 1);
}

/* s as a gnuplot single-quoted string ('' for ', no line breaks: they would end the command) */
static void gp_text(FILE *f, const char *s)
{
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'')
      fputs("''", f);
    else
      fputc(*s == '\n' || *s == '\r' ? '?' : *s, f);
  fputc('\'', f);
}

/* s as a CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break */
static void csv_text(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* The files of a --report directory.  The writers below open them through this table and
 * gc_fit_report_plan gives the same table to the output guard.  The PNGs are made by gnuplot
 * under the names plot-fit.gp gives them. */
enum {
  RF_SUMMARY,
  RF_PARAMS,
  RF_COMPRESSION,
  RF_COMPRESSION_MODEL,
  RF_RESTITUTION,
  RF_RESTITUTION_MODEL,
  RF_PATHS,
  RF_PATHS_ERRORS,
  RF_CONVERGENCE,
  RF_PLOT,
  RF_PNG_COMPRESSION,
  RF_PNG_RESTITUTION,
  RF_PNG_CONVERGENCE,
  RF_PNG_PATHS,
  RF_HTML,
  RF_COUNT
};
static const char *const report_files[RF_COUNT] = {
  [RF_SUMMARY] = "summary.txt",
  [RF_PARAMS] = "fit.params",
  [RF_COMPRESSION] = "compression.csv",
  [RF_COMPRESSION_MODEL] = "compression-model.csv",
  [RF_RESTITUTION] = "restitution.csv",
  [RF_RESTITUTION_MODEL] = "restitution-model.csv",
  [RF_PATHS] = "paths.csv",
  [RF_PATHS_ERRORS] = "paths-errors.csv",
  [RF_CONVERGENCE] = "convergence.csv",
  [RF_PLOT] = "plot-fit.gp",
  [RF_PNG_COMPRESSION] = "compression.png",
  [RF_PNG_RESTITUTION] = "restitution.png",
  [RF_PNG_CONVERGENCE] = "convergence.png",
  [RF_PNG_PATHS] = "paths.png",
  [RF_HTML] = "report.html",
};

void gc_fit_report_plan(const char *dir, gc_outplan *plan)
{
  gc_outplan_dir(plan, dir);
  for (int i = 0; i < RF_COUNT; i++)
    gc_outplan_dir_file(plan, dir, report_files[i], NULL);
}

typedef struct {
  char *dir; /* temporary directory */
  char path[4096];
} tmpdir;

static FILE *open_in(tmpdir *t, int file)
{
  snprintf(t->path, sizeof t->path, "%s/%s", t->dir, report_files[file]);
  return fopen(t->path, "w");
}

static int close_ok(FILE *f)
{
  if (!f)
    return 0;
  int bad = ferror(f);
  return fclose(f) == 0 && !bad;
}

static void remove_tree(const char *dir)
{
  DIR *dp = opendir(dir);
  if (dp) {
    struct dirent *e;
    char p[4096];
    while ((e = readdir(dp)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        remove(p);
      }
    closedir(dp);
  }
  rmdir(dir);
}

/* Run gnuplot on plot-fit.gp inside dir; 0 on success. */
static int run_gnuplot(const char *dir)
{
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(127);
    execlp("gnuplot", "gnuplot", "plot-fit.gp", (char *)NULL);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---------------------------------------------------------------- report.html */

static void html_text(FILE *f, const char *s, size_t len)
{
  for (size_t i = 0; i < len && s[i]; i++) {
    switch (s[i]) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(s[i], f);
    }
  }
}

/* The PNG at path as a data: URI (RFC 4648 base64), or a note when there is none. */
static void html_png(FILE *f, const char *path, const char *alt)
{
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  FILE *in = fopen(path, "rb");
  if (!in) {
    fputs("<p><em>", f);
    html_text(f, alt, (size_t)-1);
    fputs(": no image (gnuplot missing or failed; run <code>gnuplot plot-fit.gp</code> "
          "in the report directory)</em></p>\n",
          f);
    return;
  }
  fputs("<figure><img alt=\"", f);
  html_text(f, alt, (size_t)-1);
  fputs("\" src=\"data:image/png;base64,", f);
  unsigned char b[3];
  size_t got;
  while ((got = fread(b, 1, 3, in)) > 0) {
    unsigned v = (unsigned)b[0] << 16 | (got > 1 ? (unsigned)b[1] << 8 : 0) | (got > 2 ? b[2] : 0);
    fputc(b64[v >> 18 & 63], f);
    fputc(b64[v >> 12 & 63], f);
    fputc(got > 1 ? b64[v >> 6 & 63] : '=', f);
    fputc(got > 2 ? b64[v & 63] : '=', f);
  }
  fclose(in);
  fputs("\"><figcaption>", f);
  html_text(f, alt, (size_t)-1);
  fputs("</figcaption></figure>\n", f);
}

/* One self-contained page: provenance, the verdict, the parameters with intervals, residuals,
 * the plots (embedded) and the full summary. */
static int write_html(tmpdir *t, gc_fit_problem *pb, const gc_fit_options *o,
                      const gc_fit_result *res, const gc_fit_ident *id, const gc_fit_verdict *v,
                      const double *Pp, const char *comment)
{
  char *verdict = NULL, *summary = NULL;
  size_t vl = 0, sl = 0;
  FILE *m = open_memstream(&verdict, &vl);
  if (m) {
    if (v)
      gc_fit_print_verdict(m, pb, res->p, id, v);
    fclose(m);
  }
  m = open_memstream(&summary, &sl);
  if (m) {
    gc_fit_print_summary(m, pb, o, res, id, v);
    fclose(m);
  }
  char png[4][4096];
  for (int i = 0; i < 4; i++)
    snprintf(png[i], sizeof png[i], "%s/%s", t->dir, report_files[RF_PNG_COMPRESSION + i]);
  FILE *f = open_in(t, RF_HTML);
  if (!f) {
    free(verdict);
    free(summary);
    return 0;
  }
  const gc_fit_setup *s = &pb->set;
  const double *p = res->p;
  fprintf(f,
          "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<title>granucal fit report</title>\n<style>\n"
          "body{font-family:sans-serif;max-width:960px;margin:1em auto;padding:0 1em;color:#222}\n"
          "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;"
          "padding:2px 8px;text-align:right}th{background:#eee}td.l{text-align:left}\n"
          "pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;font-size:90%%}\n"
          ".verdict{border-left:4px solid #0072b2;background:#eef6fb}\n"
          "img{max-width:100%%}figure{margin:1em 0}</style></head><body>\n");
  fprintf(f,
          "<h1>Calibration of the contact model '%s'</h1>\n"
          "<p>Dissertation appendix E: %zu compression points, %zu drops, %zu load-path "
          "points in %zu file%s; solver %s (",
          s->model->name, pb->data->n_comp, pb->data->n_drop, pb->data->n_path,
          pb->data->n_path_files, pb->data->n_path_files == 1 ? "" : "s",
          gc_fit_alg_name(o->algorithm));
  html_text(f, gc_fit_alg_description(o->algorithm), (size_t)-1);
  fprintf(f, ").</p>\n<pre>");
  html_text(f, comment ? comment : "", (size_t)-1);
  fprintf(f, "</pre>\n<h2>Verdict: what the data determine</h2>\n<pre class=\"verdict\">");
  html_text(f, verdict ? verdict : "(no identifiability profile)", (size_t)-1);
  fprintf(f, "</pre>\n<h2>Parameters</h2>\n<table><tr><th>parameter</th><th>unit</th>"
             "<th>initial</th><th>result</th><th>95 %% interval (linearised)</th>"
             "<th>95 %% profile interval</th><th>status</th></tr>\n");
  for (int j = 0; j < s->npar; j++) {
    char ci[64] = "", pi[64] = "", st[96];
    if (s->is_free[j] && id)
      snprintf(ci, sizeof ci, isfinite(id->ci_hi[j]) ? "[%.4g, %.4g]" : "not determined",
               id->ci_lo[j], id->ci_hi[j]);
    if (v && v->prof[j].j >= 0)
      snprintf(pi, sizeof pi, "%s%.4g, %.4g%s", v->prof[j].open_lo ? "(&le; bound " : "[",
               v->prof[j].lo, v->prof[j].hi, v->prof[j].open_hi ? " bound)" : "]");
    if (v && v->held[j])
      snprintf(st, sizeof st, "held (not determined)");
    else if (!s->is_free[j])
      snprintf(st, sizeof st, "fixed");
    else
      snprintf(st, sizeof st, "free in [%g, %g]", s->lo[j], s->hi[j]);
    fprintf(f,
            "<tr><td class=\"l\">%s</td><td>%s</td><td>%.6g</td><td>%.6g</td><td>%s</td>"
            "<td>%s</td><td class=\"l\">%s</td></tr>\n",
            gc_fit_name(&pb->set, j), gc_fit_unit(&pb->set, j), s->trial[j], p[j], ci, pi, st);
  }
  if (gc_fit_find(s, GC_PAR_E1) >= 0 && gc_fit_find(s, GC_PAR_NU1) >= 0) {
    const int iE = gc_fit_find(s, GC_PAR_E1), inu = gc_fit_find(s, GC_PAR_NU1);
    double Es = p[iE] / (1 - p[inu] * p[inu]);
    fprintf(f, "<tr><td class=\"l\">E*</td><td>Pa</td><td></td><td>%.6g</td><td>", Es);
    if (id && isfinite(id->Estar_hi))
      fprintf(f, "[%.4g, %.4g]", id->Estar_lo, id->Estar_hi);
    fprintf(f, "</td><td></td><td class=\"l\">E/(1-nu^2), what the data determine</td></tr>\n");
  }
  fprintf(f,
          "</table>\n<p>Objective F = %.7g (1 at the initial values), %ld evaluations, "
          "%.3f s.</p>\n",
          res->val.F, res->nevals, res->seconds);
  /* a panel without data is not drawn (plot-fit.gp skips it) */
  const gc_fit_data *d = pb->data;
  if (d->n_comp) {
    fprintf(f, "<h2>Compression test</h2>\n");
    html_png(f, png[0],
             "P against alpha: data, fitted model, Hertz with the same E*; residuals "
             "below");
  }
  if (d->n_drop) {
    fprintf(f, "<h2>Drop tests</h2>\n");
    html_png(f, png[1], "e against v_in: data (with sd where given), model; residuals below");
  }
  if (d->n_path) {
    /* the caption names every file with its force errors (the summary's load-path table) */
    char *cap = NULL;
    size_t cl = 0;
    FILE *c = open_memstream(&cap, &cl);
    if (c) {
      fprintf(c, "P against alpha along the load paths, measured as points (filled on loading, "
                 "open on unloading), the fitted model replayed along the measured "
                 "displacements as lines; model - measured below. RMS force errors "
                 "(loading / unloading):");
      for (size_t k = 0; k < d->n_path_files; k++) {
        path_err e;
        char name[256];
        path_errors(d, Pp, k, &e);
        path_label(d, k, name, sizeof name);
        fprintf(c, "%s %s %.4g / %.4g N", k ? ";" : "", name, e.rms_l, e.rms_u);
      }
      fprintf(c, ".");
      fclose(c);
    }
    fprintf(f, "<h2>Load paths</h2>\n");
    html_png(f, png[3], cap ? cap : "load paths");
    free(cap);
  }
  fprintf(f, "<h2>Convergence</h2>\n");
  html_png(f, png[2],
           "objective against evaluations of the solver used: every start of a "
           "multi-start run (grey), the chosen one in colour");
  fprintf(f, "<h2>Full summary</h2>\n<pre>");
  html_text(f, summary ? summary : "", (size_t)-1);
  fprintf(f, "</pre>\n<p>Data and plot script beside this page: compression.csv, "
             "restitution.csv, paths.csv, paths-errors.csv, convergence.csv, plot-fit.gp, "
             "fit.params.</p>\n</body></html>\n");
  free(verdict);
  free(summary);
  return close_ok(f);
}

int gc_fit_write_report(const char *dir, gc_fit_problem *pb, const gc_fit_options *o,
                        const gc_fit_result *res, const gc_fit_ident *id, const gc_fit_verdict *v,
                        const gc_card_extra *x, const char *comment, int *warn, char *msg, size_t n)
{
  *warn = 0;
  const gc_fit_data *d = pb->data;
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/')
    len--;
  tmpdir t;
  t.dir = malloc(len + 32);
  if (!t.dir) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  snprintf(t.dir, len + 32, "%.*s.tmp%ld", (int)len, dir, (long)getpid());
  remove_tree(t.dir); /* a leftover of an earlier run with the same pid */
  if (mkdir(t.dir, 0777) != 0) {
    snprintf(msg, n, "%s: cannot create the report directory: %s", dir, strerror(errno));
    free(t.dir);
    return GC_EIO;
  }
  int ok = 1;
  FILE *f;
  const double *p = res->p;
  /* summary and parameter file */
  f = open_in(&t, RF_SUMMARY);
  if (f) {
    if (v)
      gc_fit_print_verdict(f, pb, p, id, v);
    gc_fit_print_summary(f, pb, o, res, id, v);
    if (comment && *comment)
      fprintf(f, "\n%s\n", comment);
    fprintf(f, "\nobjective history: convergence.csv (start, iteration, evaluations of that start, "
               "best F so far of that start, 1 for the chosen start), one block per start\n");
  }
  ok &= close_ok(f);
  f = open_in(&t, RF_PARAMS);
  if (f)
    ok &= gc_fit_write_params(f, pb, res, x, comment) == GC_SUCCESS;
  ok &= close_ok(f);
  /* data and model at the data */
  double *Pm = malloc((d->n_comp ? d->n_comp : 1) * sizeof *Pm);
  gc_drop_result *dr = malloc((d->n_drop ? d->n_drop : 1) * sizeof *dr);
  double *Pp = malloc((d->n_path ? d->n_path : 1) * sizeof *Pp);
  if (!Pm || !dr || !Pp || gc_fit_predict(pb, p, Pm, dr) != GC_SUCCESS)
    ok = 0;
  gc_law law;
  if (ok && gc_fit_law(pb, p, &law) != GC_SUCCESS)
    ok = 0;
  if (ok) {
    f = open_in(&t, RF_COMPRESSION);
    if (f) {
      fprintf(f, "alpha [m],P [N],P_model [N]\n");
      for (size_t i = 0; i < d->n_comp; i++)
        fprintf(f, "%.10g,%.10g,%.10g\n", d->alpha[i], d->P[i], Pm[i]);
    }
    ok &= close_ok(f);
    /* model curves: the virgin curve on monotonic loading, and Hertz with the same E* */
    double amax = 0;
    for (size_t i = 0; i < d->n_comp; i++)
      amax = fmax(amax, d->alpha[i]);
    if (!(amax > 0))
      amax = 3e-5;
    f = open_in(&t, RF_COMPRESSION_MODEL);
    if (f) {
      fprintf(f, "alpha [m],P_model [N],P_hertz [N]\n");
      double s[GC_HIST_MAX];
      gc_law_history_init(&law, s);
      for (int i = 0; i <= 200 && ok; i++) {
        double a = 1.1 * amax * i / 200.0;
        gc_normal out;
        if (gc_law_normal(&law, s, a, 0.0, &out) != GC_SUCCESS)
          ok = 0;
        else
          fprintf(f, "%.10g,%.10g,%.10g\n", a, out.P, law.pair.k_hertz * a * sqrt(a));
      }
    }
    ok &= close_ok(f);
    f = open_in(&t, RF_RESTITUTION);
    if (f) {
      fprintf(f, "v_in [m/s],e,e_model,P_max [N],sd,n\n");
      for (size_t k = 0; k < d->n_drop; k++)
        fprintf(f, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", d->v_in[k], d->e[k], dr[k].e_vel,
                dr[k].P_max, d->e_sd[k], d->e_n[k]);
    }
    ok &= close_ok(f);
    double vlo = INFINITY, vhi = 0;
    for (size_t k = 0; k < d->n_drop; k++) {
      vlo = fmin(vlo, d->v_in[k]);
      vhi = fmax(vhi, d->v_in[k]);
    }
    if (!d->n_drop)
      vlo = 0.5, vhi = 3.0;
    vlo *= 0.9;
    vhi *= 1.1;
    f = open_in(&t, RF_RESTITUTION_MODEL);
    if (f) {
      fprintf(f, "v_in [m/s],e_model,e_hertz\n");
      for (int i = 0; i <= 40 && ok; i++) {
        double v = vlo + (vhi - vlo) * i / 40.0;
        gc_drop_result r;
        if (gc_drop_run(&law, &pb->set.drop, v, &r, NULL, NULL) == GC_SUCCESS)
          fprintf(f, "%.10g,%.10g,1\n", v, r.e_vel);
      }
    }
    ok &= close_ok(f);
    /* load paths: the measured points and the model replayed along the measured displacements
     * (the residuals of F_a), one row per point; header only when the fit has no load path */
    if (d->n_path && (!Pp || gc_fit_predict_path(pb, p, Pp) != GC_SUCCESS))
      ok = 0;
    f = ok ? open_in(&t, RF_PATHS) : NULL;
    if (f) {
      fprintf(f, "file,line,t [s],alpha [m],P [N],P_model [N],branch\n");
      for (size_t k = 0; k < d->n_path_files; k++)
        for (size_t i = d->path_start[k]; i < d->path_start[k + 1]; i++)
          fprintf(f, "%zu,%zu,%.10g,%.10g,%.10g,%.10g,%d\n", k + 1, d->path_line[i], d->path_t[i],
                  d->path_alpha[i], d->path_P[i], Pp[i], path_branch(d, k, i));
    }
    ok &= close_ok(f);
    f = ok ? open_in(&t, RF_PATHS_ERRORS) : NULL;
    if (f) {
      fprintf(f, "file,points,loading,unloading,rms load [N],max load [N],rms unload [N],"
                 "max unload [N],rms [N],name\n");
      for (size_t k = 0; k < d->n_path_files; k++) {
        path_err e;
        char name[256];
        path_errors(d, Pp, k, &e);
        path_label(d, k, name, sizeof name);
        fprintf(f, "%zu,%zu,%zu,%zu,%.10g,%.10g,%.10g,%.10g,%.10g,", k + 1, e.n, e.nl, e.nu,
                e.rms_l, e.max_l, e.rms_u, e.max_u, e.rms);
        csv_text(f, name);
        fputc('\n', f);
      }
    }
    ok &= close_ok(f);
    /* every start's history, one block each (two blank lines between blocks), so that the plot
     * can draw them all with the chosen one highlighted */
    const gc_fit_trace *tr = res->nall ? res->all : res->trace;
    size_t ntr = res->nall ? res->nall : res->ntrace;
    int chosen = res->best_start > 0 ? res->best_start : 1, nstarts = 0;
    f = open_in(&t, RF_CONVERGENCE);
    if (f) {
      fprintf(f, "start,iteration,evaluations,F,chosen\n");
      int prev = 0;
      for (size_t i = 0; i < ntr; i++) {
        int st = res->nall ? tr[i].start : chosen;
        if (st != prev) {
          if (prev)
            fprintf(f, "\n\n");
          prev = st;
          nstarts++;
        }
        fprintf(f, "%d,%ld,%ld,%.12g,%d\n", st, tr[i].iter, tr[i].nevals, tr[i].F, st == chosen);
      }
    }
    ok &= close_ok(f);
    /* the block of the chosen start (starts without a history, if any, have no block) */
    int chosen_block = 1;
    for (size_t i = 0, b = 0, prev = 0; i < ntr; i++) {
      size_t st = (size_t)(res->nall ? tr[i].start : chosen);
      if (st != prev) {
        b++;
        prev = st;
      }
      if ((int)st == chosen)
        chosen_block = (int)b;
    }
    f = open_in(&t, RF_PLOT);
    if (f) {
      /* a model that does not read E (wb, lsd) has no Hertz curve of the same E* */
      fprintf(f,
              "solver = '%s'; has_sd = %d; has_n = %d; nstarts = %d; chosen = %d; "
              "has_hertz = %d\n",
              gc_fit_alg_name(o->algorithm), d->has_sd, d->has_n, nstarts > 0 ? nstarts : 1,
              chosen_block, law.pair.k_hertz > 0 && gc_fit_model_reads(pb->set.model, GC_PAR_E1));
      /* which panels have data (a panel without data is skipped: gnuplot fails on a plot
       * with no valid point), and the legend of each load-path file */
      fprintf(f, "has_comp = %d; has_drop = %d; npath = %zu\n", d->n_comp > 0, d->n_drop > 0,
              d->n_path_files);
      fprintf(f, "array PN[%zu]", d->n_path_files ? d->n_path_files : 1);
      for (size_t k = 0; k < d->n_path_files; k++) {
        path_err e;
        char name[256], lab[320];
        path_errors(d, Pp, k, &e);
        path_label(d, k, name, sizeof name);
        snprintf(lab, sizeof lab, "%s: rms %.3g N", name, e.rms);
        fprintf(f, "%s", k ? ", " : " = [");
        gp_text(f, lab);
      }
      fprintf(f, "%s\n", d->n_path_files ? "]" : "");
      fputs(plot_script, f);
    }
    ok &= close_ok(f);
  }
  free(Pm);
  free(dr);
  if (!ok) {
    free(Pp);
    snprintf(msg, n, "%s: cannot write the report: %s", dir,
             errno ? strerror(errno) : "model failure");
    remove_tree(t.dir);
    free(t.dir);
    return GC_EIO;
  }
  if (run_gnuplot(t.dir) != 0) {
    *warn = 1;
    /* no partial images */
    for (int i = RF_PNG_COMPRESSION; i <= RF_PNG_PATHS; i++) {
      snprintf(t.path, sizeof t.path, "%s/%s", t.dir, report_files[i]);
      remove(t.path);
    }
  }
  int html = write_html(&t, pb, o, res, id, v, Pp, comment);
  free(Pp);
  if (!html) {
    snprintf(msg, n, "%s: cannot write report.html: %s", dir, errno ? strerror(errno) : "?");
    remove_tree(t.dir);
    free(t.dir);
    return GC_EIO;
  }
  /* move into place: a new directory by one rename, an existing one file by file */
  char *final = malloc(len + 1);
  if (!final) {
    remove_tree(t.dir);
    free(t.dir);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  memcpy(final, dir, len);
  final[len] = 0;
  int st = GC_SUCCESS;
  struct stat sb;
  if (stat(final, &sb) != 0) {
    if (rename(t.dir, final) != 0) {
      snprintf(msg, n, "%s: cannot create the report directory: %s", final, strerror(errno));
      st = GC_EIO;
    }
  } else if (!S_ISDIR(sb.st_mode)) {
    snprintf(msg, n, "%s: exists and is not a directory", final);
    st = GC_EIO;
  } else {
    DIR *dp = opendir(t.dir);
    struct dirent *e;
    char to[4096];
    while (dp && (e = readdir(dp)) && !st) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      snprintf(t.path, sizeof t.path, "%s/%s", t.dir, e->d_name);
      snprintf(to, sizeof to, "%s/%s", final, e->d_name);
      if (rename(t.path, to) != 0) {
        snprintf(msg, n, "%s: cannot write: %s", to, strerror(errno));
        st = GC_EIO;
      }
    }
    if (dp)
      closedir(dp);
    else {
      snprintf(msg, n, "%s: cannot read: %s", t.dir, strerror(errno));
      st = GC_EIO;
    }
  }
  remove_tree(t.dir);
  free(t.dir);
  free(final);
  return st;
}
