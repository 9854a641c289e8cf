/* cmd_chute.c - `granucal chute`: the chapter 9 flow of rigid clusters down an inclined chute
 * (chute.h), driven by a chute card (chute_io.h, granucal-chute(5)). */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "chute.h"
#include "chute_io.h"
#include "cli_common.h"
#include "cli.h"
#include "provenance.h"

/* The options of `granucal chute` (rows of gc_chute_options). */
typedef struct {
  const char *outdir, *resume;
  gc_cli_list sets;
  double t_end;
  long threads;
  int quiet, help;
} chute_opts;

#define ROW(field) .offset = offsetof(chute_opts, field)
const gc_cli_opt gc_chute_options[] = {
  { .name = "output-dir",
    .letter = 'o',
    .kind = GC_OPT_DIR,
    .metavar = "DIR",
    .man_arg = "dir",
    ROW(outdir),
    .help = "directory of the outputs (created if missing; default: the\n"
            "card's name with .chute replaced by .out, in the working\n"
            "directory)" },
  { .name = "set",
    .letter = 's',
    .kind = GC_OPT_LIST,
    .metavar = "KEY=VALUE",
    .man_arg = "key=value",
    ROW(sets),
    .help = "set one key of the card (repeatable; after the file)" },
  GC_CLI_LAW_ROWS(chute_opts, sets),
  { .name = "t-end",
    .kind = GC_OPT_DOUBLE,
    .metavar = "T",
    .man_arg = "t",
    .lo = 0,
    .hi = 1e9,
    .lo_open = 1,
    .unit = "s",
    ROW(t_end),
    .help = "simulated time [s] (the key t_end)" },
  { .name = "threads",
    .kind = GC_OPT_LONG,
    .metavar = "N",
    .man_arg = "n",
    .lo = 0,
    .hi = 4096,
    ROW(threads),
    .help = "OpenMP threads of the force loop (the key threads; 0: default)" },
  { .name = "resume",
    .kind = GC_OPT_FILE,
    .metavar = "FILE",
    .man_arg = "checkpoint",
    ROW(resume),
    .help = "continue from a checkpoint written by a run of the same card\n"
            "(only t_end, threads and the outputs may change) and its\n"
            "record (the series.csv next to it, profiles, forces)" },
  GC_CLI_ROW_QUIET(ROW(quiet), "no notes, progress line or summary on standard error"),
  GC_CLI_ROW_HELP(ROW(help)),
  { .name = NULL }
};
#undef ROW
enum { ROW_T_END = 2 + GC_CLI_LAW_NROWS, ROW_THREADS, ROW_COUNT = 7 + GC_CLI_LAW_NROWS };

static void chute_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal chute [-o DIR] [-s KEY=VALUE]... [--t-end T] [--threads N]\n"
          "                      [--resume CHECKPOINT] [-q] FILE.chute\n\n"
          "Flow of rigid sphere clusters down an inclined chute with a bumpy bottom and two\n"
          "side walls, periodic along the flow (the soybean flow of ch. 9), with the contact\n"
          "models of 'granucal models'.  The chute card FILE.chute (man granucal-chute(5)) gives\n"
          "the particles, the domain, the materials, the time step and the outputs.\n\n");
  gc_cli_help_options(f, gc_chute_options, 24);
  fprintf(f, "\n"
             "Outputs in DIR (each written atomically; with checkpoints the series, profiles and\n"
             "forces up to each checkpoint are on the disk before it):\n");
  gc_chute_print_outputs(f, 24);
  fprintf(f, "\nKeys of the chute card:\n");
  gc_chute_print_keys(f);
  fprintf(f, "\nExit status: 0 success, 1 bad input or run-time failure, 2 usage error.\n");
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_hms(double s, char *buf, size_t n)
{
  if (!(s >= 0) || s > 1e8) {
    snprintf(buf, n, "--:--:--");
    return;
  }
  long t = (long)(s + 0.5);
  snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* Progress of a run on standard error: the simulated time, the rate since the start of this
 * run, the mean velocity along the flow, the contacts and the estimated time to the end.  On a
 * terminal a line that overwrites itself (every PROGRESS_TTY_S of wall time), else one line
 * every PROGRESS_LOG_S, as a log keeps them (LAMMPS's thermo output). */
#define PROGRESS_TTY_S 0.5
#define PROGRESS_LOG_S 5.0
static void progress_line(const gc_chute *ch, const gc_chute_run *run, double rate, int tty)
{
  gc_chute_stats s;
  gc_chute_stats_get(ch, &s);
  char eta[32];
  fmt_hms(rate > 0 ? (double)(run->n_steps - ch->step) / rate : -1.0, eta, sizeof eta);
  fprintf(stderr,
          "%st = %.5f / %.5g s (%.1f %%)  %.4g steps/s  vx = %.5g m/s  %zu contacts  "
          "ETA %s%s",
          tty ? "\r\033[K" : "", ch->t, run->t_end, 100.0 * (double)ch->step / (double)run->n_steps,
          rate, s.v_mean[0], s.n_contacts, eta, tty ? "" : "\n");
  fflush(stderr);
}

/* provenance.txt (version, command, date, CRC-32 of every input) and effective.chute (the card
 * with --set applied and absolute paths) in the output directory, each written atomically. */
static int write_records(const char *prog, const char *dir, int argc, char **argv, const char *card,
                         const char *resume, const gc_chute_run *run)
{
  char msg[512];
  size_t dl = strlen(dir) + 32;
  char *path = malloc(dl);
  if (!path)
    return 1;
  const char *inputs[GC_CHUTE_NINPUTS + 2] = { card };
  size_t nin = 1 + gc_chute_run_inputs(run, inputs + 1);
  inputs[nin++] = resume;
  gc_outfile of;
  int rc = 0;
  for (int k = 0; k < 2 && !rc; k++) {
    snprintf(path, dl, "%s/%s", dir,
             gc_chute_file_name(k ? GC_CHUTE_FILE_EFFECTIVE : GC_CHUTE_FILE_PROVENANCE));
    if (gc_outfile_open(&of, path, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
      break;
    }
    if (k == 0) {
      gc_provenance_write(of.f, "", argc, argv, inputs, nin);
    } else {
      fprintf(of.f, "# effective chute card of this run (granucal-chute(5)): every key the card "
                    "or --set gave,\n# paths absolute; `granucal chute effective.chute` repeats "
                    "the run.\n");
      gc_provenance_write(of.f, "# ", argc, argv, inputs, nin);
      fputs(run->effective, of.f);
    }
    if (gc_outfile_commit(&of, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      gc_outfile_abort(&of);
      rc = 1;
    }
  }
  free(path);
  return rc;
}

/* mkdir DIR unless it exists; *created = 1 if this call made it. */
static int make_dir(const char *prog, const char *dir, int *created)
{
  struct stat sb;
  *created = 0;
  if (stat(dir, &sb) == 0) {
    if (!S_ISDIR(sb.st_mode)) {
      fprintf(stderr, "%s: %s: exists and is not a directory\n", prog, dir);
      return 1;
    }
    return 0;
  }
  if (mkdir(dir, 0777) != 0) {
    fprintf(stderr, "%s: %s: cannot create the directory: %s\n", prog, dir, strerror(errno));
    return 1;
  }
  *created = 1;
  return 0;
}

int gc_cmd_chute(int argc, char **argv)
{
  const char *prog = "granucal chute";
  char tbuf[64] = "", jbuf[64] = "";
  /* user sets, then --t-end and --threads */
  chute_opts o = { 0 };
  if (gc_cli_list_alloc(&o.sets, argc, argv, 2))
    return 1;
  /* the command line as typed, for the provenance record (getopt_long permutes argv) */
  char *cmdline[argc + 1];
  memcpy(cmdline, argv, (size_t)(argc + 1) * sizeof *argv);
  int seen[ROW_COUNT] = { 0 }, first_operand = 1;
  int bad = gc_cli_parse(prog, gc_chute_options, argc, argv, &o, seen, &first_operand);
  if (bad == GC_CLI_HELP)
    chute_usage(stdout);
  if (bad) {
    free(o.sets.v);
    return bad == GC_CLI_HELP ? 0 : bad;
  }
  if (seen[ROW_T_END])
    snprintf(tbuf, sizeof tbuf, "t_end=%.17g", o.t_end);
  if (seen[ROW_THREADS])
    snprintf(jbuf, sizeof jbuf, "threads=%ld", o.threads);
  const char *outdir = o.outdir, *resume = o.resume;
  int quiet = o.quiet;
  char **sets = o.sets.v;
  size_t nsets = o.sets.n;
  if (gc_cli_sets_check(prog, sets, nsets, argc, argv, first_operand)) {
    free(sets);
    return 2;
  }
  if (first_operand >= argc) {
    fprintf(stderr, "%s: no chute card given (see --help)\n", prog);
    free(sets);
    return 2;
  }
  if (first_operand + 1 < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[first_operand + 1]);
    free(sets);
    return 2;
  }
  const char *card = argv[first_operand];
  for (size_t i = 0; i < nsets; i++) {
    const char *eq = strchr(sets[i], '=');
    if (!eq || eq == sets[i]) {
      fprintf(stderr, "%s: --set '%s': expected KEY=VALUE\n", prog, sets[i]);
      free(sets);
      return 2;
    }
  }
  if (*tbuf)
    sets[nsets++] = tbuf;
  if (*jbuf)
    sets[nsets++] = jbuf;

  char msg[1024];
  gc_chute_run *run = malloc(sizeof *run);
  if (!run) {
    free(sets);
    return 1;
  }
  int st = gc_chute_run_load(card, sets, nsets, run, msg, sizeof msg);
  free(sets);
  if (st) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    free(run);
    /* a bad --set (unknown key, bad value) is a usage error */
    return strncmp(msg, "--set", 5) == 0 ? 2 : 1;
  }
  if (!quiet)
    gc_chute_run_describe(run, stderr);

  char *dir = outdir ? strdup(outdir) : gc_cli_default_dir(card, ".out");
  int created = 0, rc = 1;
  gc_chute *ch = NULL;
  gc_chute_out *out = NULL;
  gc_dirlock lock = GC_DIRLOCK_INIT;
  void *rec = NULL; /* the outputs' record in the checkpoint resumed */
  size_t reclen = 0;
  if (!dir) {
    free(run);
    return 1;
  }
  {
    /* no output may be an input or another output (the outputs' table, chute_io.h) */
    gc_outplan plan;
    gc_outplan_init(&plan);
    gc_chute_out_plan(run, card, resume, dir, &plan);
    int clash = gc_cli_outplan_check(prog, &plan);
    gc_outplan_free(&plan);
    if (clash)
      goto done;
  }
  /* the contact laws are checked before anything is written: a bad parameter leaves no
   * output directory behind */
  if ((st = gc_chute_alloc(&ch, &run->sim, msg, sizeof msg))) {
    fprintf(stderr, "%s: %s: %s\n", prog, card, msg);
    goto done;
  }
  if (!quiet) {
    const gc_chute_bottom_info *b = &ch->bottom;
    if (run->sim.bottom == GC_BOTTOM_BEADS)
      fprintf(stderr,
              "bottom: %zu beads, hexagonal lattice of %zu rows x %zu, spacing %.6g m "
              "(bead_spacing = %.6g m: the nearest that tiles the length), nearest neighbours "
              "%.6g m apart, coverage %.3f\n",
              b->n, b->nrow, b->nx, b->spacing, run->sim.bead_spacing, b->nn, b->coverage);
    else if (run->sim.bottom == GC_BOTTOM_RANDOM)
      fprintf(stderr,
              "bottom: %zu beads, random monolayer (RSA, bottom_seed %lu), coverage %.4f, "
              "closest centres %.6g m, largest hole %.3g m\n",
              b->n, run->sim.bottom_seed, b->coverage, b->nn, b->max_hole);
  }
  st = resume ? gc_chute_checkpoint_read_record(ch, resume, &rec, &reclen, msg, sizeof msg)
              : gc_chute_place_random(ch, msg, sizeof msg);
  if (!st && resume)
    st = gc_chute_record_check(run, rec, reclen, resume, msg, sizeof msg);
  if (st) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    goto done;
  }
  if (resume && ch->step >= run->n_steps) {
    /* a finished run: continuing would rewrite its outputs from an empty window */
    fprintf(stderr,
            "%s: %s: the checkpoint is at t = %.9g s (step %ld), %s t_end = %.9g s (step "
            "%ld): the run is finished; nothing was changed.  To extend it, raise t_end "
            "(--t-end)\n",
            prog, resume, ch->t, ch->step, ch->step == run->n_steps ? "at" : "after", run->t_end,
            run->n_steps);
    goto done;
  }
  /* the output directory and its records only now: a refused resume or a failed placement
   * leaves nothing behind */
  if (make_dir(prog, dir, &created))
    goto done;
  /* one run at a time in a directory: a second one would mix its files with this one's */
  if (gc_cli_dirlock(prog, &lock, dir))
    goto done;
  if (write_records(prog, dir, argc, cmdline, card, resume, run))
    goto done;
  if ((st = gc_chute_out_open(&out, run, ch, dir, msg, sizeof msg)) ||
      (resume && (st = gc_chute_out_continue(out, ch, rec, reclen, resume, quiet ? NULL : stderr,
                                             msg, sizeof msg))) ||
      (st = gc_chute_out_record(out, ch, msg, sizeof msg))) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    goto done;
  }

  const int tty = !quiet && isatty(STDERR_FILENO);
  const long step0 = ch->step;
  const size_t builds0 = gc_nlist_builds(ch->nl);
  const double w0 = now_s();
  const clock_t cpu0 = clock();
  double wlast = w0;
  while (ch->step < run->n_steps) {
    if ((st = gc_chute_step(ch, msg, sizeof msg))) {
      if (tty)
        fprintf(stderr, "\r\033[K");
      fprintf(stderr, "%s: at t = %.9g s (step %ld): %s\n", prog, ch->t, ch->step, msg);
      goto done;
    }
    if ((st = gc_chute_out_record(out, ch, msg, sizeof msg))) {
      if (tty)
        fprintf(stderr, "\r\033[K");
      fprintf(stderr, "%s: %s\n", prog, msg);
      goto done;
    }
    if (!quiet) {
      double w = now_s();
      if (w - wlast >= (tty ? PROGRESS_TTY_S : PROGRESS_LOG_S)) {
        progress_line(ch, run, (double)(ch->step - step0) / (w - w0), tty);
        wlast = w;
      }
    }
  }
  const double wall = now_s() - w0;
  /* processor time of the stepping (all threads): on a shared machine the wall-clock rate
   * depends on the load, this one much less (for one thread) */
  const double cpu = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
  if (tty)
    fprintf(stderr, "\r\033[K");
  size_t nf;
  double f005, f01, mc;
  gc_chute_out_force_summary(out, &nf, &f005, &f01, &mc);
  gc_steady sd;
  char sdmsg[512];
  int sd_ok = gc_chute_out_steady(out, ch, &sd, sdmsg, sizeof sdmsg) == GC_SUCCESS;
  if (sd_ok)
    gc_steady_format(&sd, sdmsg, sizeof sdmsg);
  st = gc_chute_out_finish(out, ch, msg, sizeof msg);
  out = NULL;
  if (st) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    goto done;
  }
  if (!quiet) {
    long steps = ch->step - step0;
    double rate = wall > 0 ? (double)steps / wall : 0.0;
    gc_chute_stats s;
    gc_chute_stats_get(ch, &s);
    fprintf(stderr,
            "t = %.6g s: %ld steps in %.3f s (processor time %.3f s), %.4g steps/s, "
            "%.4g particle-steps/s\n",
            ch->t, steps, wall, cpu, rate, rate * (double)ch->np);
    fprintf(stderr,
            "mean velocity (%.5g, %.5g, %.5g) m/s, %zu contacts (%zu particle-particle), "
            "P_max = %.5g N\n",
            s.v_mean[0], s.v_mean[1], s.v_mean[2], s.n_contacts, s.n_contacts_pp, s.P_max);
    struct rusage ru;
    double peak_mb = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0.0;
    fprintf(stderr, "%zu neighbour-list builds, peak memory %.1f MB\n",
            gc_nlist_builds(ch->nl) - builds0, peak_mb);
    if (nf)
      fprintf(stderr, "contact forces: %.1f per step; %.1f %% <= 0.05 N, %.1f %% <= 0.1 N\n", mc,
              100 * f005, 100 * f01);
    fprintf(stderr, "flow: %s%s\n", sd_ok ? "" : "no steady-state test: ", sdmsg);
    gc_chute_budget b;
    gc_chute_budget_get(ch, &b);
    double dn = 0, dtg = 0;
    for (int k = 0; k < GC_NCAT; k++)
      dn += b.d_normal[k], dtg += b.d_tangential[k];
    fprintf(stderr,
            "energy since the start: gravity work %.6g J = kinetic change %.6g J + stored "
            "%.4g J + dissipated %.6g J (normal %.4g, tangential %.4g; particles %.4g, walls "
            "%.4g, bottom %.4g) + residual %.3g J (%.2g %%)\n",
            b.gravity, b.dkinetic, b.elastic, dn + dtg, dn, dtg,
            b.d_normal[GC_CAT_PP] + b.d_tangential[GC_CAT_PP],
            b.d_normal[GC_CAT_WALL] + b.d_tangential[GC_CAT_WALL],
            b.d_normal[GC_CAT_BOTTOM] + b.d_tangential[GC_CAT_BOTTOM], b.residual,
            b.gravity != 0 ? 100 * b.residual / fabs(b.gravity) : 0.0);
    fprintf(stderr, "outputs in %s/\n", dir);
    fprintf(stderr,
            "next: plot-chute %s draws the series, the profiles and the force statistics "
            "as PNG files%s%s%s\n",
            dir, run->vtk_interval > 0 ? "; open " : "", run->vtk_interval > 0 ? dir : "",
            run->vtk_interval > 0
                ? "/particles.pvd in ParaView "
                  "(Glyph: Sphere, scale by radius, factor 2) to watch the particles"
                : "");
  }
  rc = 0;
done:
  if (out)
    gc_chute_out_abort(out);
  if (ch)
    gc_chute_free(ch);
  gc_dirlock_release(&lock);
  free(rec);
  if (rc && created)
    rmdir(dir); /* only if empty: complete snapshots and checkpoints stay */
  free(dir);
  free(run);
  return rc;
}
