/* cmd_fit.c - `granucal fit`: calibrate a normal contact model (default: the elasto-plastic NFD
 * model 'ep') from single-particle compression and drop tests and load paths (dissertation
 * appendix E); see fit.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "cli_common.h"
#include "data_check.h"
#include "fit.h"
#include "gc_io.h"
#include "provenance.h"

#define GC_G 9.80665 /* standard gravity [m/s^2] */

/* The names of the global solvers joined as "a, b and c" (word: "and" or "or") */
static void global_names(char *buf, size_t n, const char *word)
{
  char list[120];
  gc_fit_solver_names(list, sizeof list, GC_FIT_SOLVER_GLOBAL, 0);
  char *last = strrchr(list, ',');
  if (last) {
    *last = 0;
    snprintf(buf, n, "%s %s%s", list, word, last + 1);
  } else {
    snprintf(buf, n, "%s", list);
  }
}

static void fit_usage(FILE *f)
{
  fprintf(
      f,
      "usage: granucal fit [-c] CARD [-m MODEL] [-s KEY=VALUE]... DATA.csv... [-o OUT.params]\n"
      "                    [-A ALGORITHM] [--fix NAME[=VALUE]]... [--free NAME|all]...\n"
      "                    [--bounds NAME=LO:HI]... [--w-a W] [--w-e W] [--point-weights "
      "none|n|sd]\n"
      "                    [--eps EPS] [--delta DELTA] [--max-iter N] [--max-evals N]\n"
      "                    [--polish ALGORITHM|none] [--starts N] [--seed S]\n"
      "                    [--dt DT] [--gravity] [--report DIR] [--undetermined hold|fit]\n"
      "                    [-v] [-q]\n\n"
      "Find the parameters of a normal contact model (default: E, nu, P_Y, C_a, K_c of the\n"
      "elasto-plastic model 'ep' of Vu-Quoc & Zhang) that minimise the objective of appendix E,\n"
      "  F = w_a F_a / F_a(trial) + w_e F_e / F_e(trial),  F_a = sum (P_model(alpha_i) - P_i)^2,\n"
      "  F_e = sum (e_model(v_in,k) - e_k)^2,\n"
      "for a sphere (radius R, mass m from the card) on a rigid plane: P_model from the model's\n"
      "loading curve, e_model from a simulated drop (leap-frog, dt = 1e-6 s).  The trial values\n"
      "are the card's (and -s) values.  The result is written as a parameter file that\n"
      "`granucal contact -c` and `granucal drop -c` read unchanged; a summary with the\n"
      "residual of every data point and an identifiability analysis goes to standard error.\n\n"
      "Data files (CSV with a header naming columns and units; the kind is told by the header;\n"
      "an argument ending in .card or .params is the material card):\n"
      "  compression: alpha [m] (single-side displacement) or approach [m] (platen approach,\n"
      "               alpha = approach/2), P [N]\n"
      "  drops:       v_in [m/s] and/or H [m] (v_in = sqrt(2 g H)), e, optionally n (repeat\n"
      "               count) or sd (standard deviation of e)\n"
      "  load path:   t [s], alpha [m], P [N] (optionally a [m], ignored): any sequence of\n"
      "               loading, unloading and reloading (an FEA curve of scripts/fea-sphere, a\n"
      "               cyclic compression test), replayed through the contact driver from a\n"
      "               fresh contact; its force residuals join F_a.  Several path files may\n"
      "               be given; the kinds can be combined.\n\n"
      "  -c, --card FILE        material card: R [m], m [kg] (or rho), trial E, nu, P_Y (or sY),\n"
      "                         C_a, K_c\n"
      "  -m, --model MODEL      the model to fit (default: the card's 'model', else ep): any\n"
      "                         model with a normal part (ep, thornton, hertz, tsuji, wb, lsd,\n"
      "                         lsd_e, hc); its fittable parameters are the ones its normal and\n"
      "                         damping parts read that change the force of a sphere on a\n"
      "                         rigid plane (ep: E nu P_Y C_a K_c; thornton: E nu P_Y (or sY);\n"
      "                         hertz: E nu; tsuji: E nu e_n; wb: k_n e_n; lsd: k_n c_n; ...)\n"
      "  -s, --set K=V          set a card value (repeatable), e.g. an initial value\n"
      "      --compression FILE  compression data (instead of a positional file)\n"
      "      --drops FILE       drop data (instead of a positional file)\n"
      "  -o, --output FILE      parameter file (default: standard output)\n"
      "  -A, --algorithm NAME   solver (default lm):\n");
  for (int a = 0; a < gc_fit_solver_count(); a++)
    fprintf(f, "                           %-11s %s\n", gc_fit_alg_name(a),
            gc_fit_alg_description(a));
  fprintf(
      f, "      --fix NAME[=V]     hold a parameter of the model at V or its initial value\n"
         "      --free NAME|all    fit a parameter (default: all of the model's, as appendix E);\n"
         "                         naming sY (sY1) fits the yield stress instead of P_Y\n"
         "      --bounds NAME=LO:HI  bounds (default: initial value / 10 to * 10; a parameter\n"
         "                         bounded above by the table, hi: max(initial / 10, hi / 10) to\n"
         "                         hi (open: 2 %% inside), i.e. nu 0.05 to 0.49, e_n 0.1 to 1)\n"
         "      --w-a W, --w-e W   weights of eq. E.5 (default 0.1 and 0.9, the seed's)\n"
         "      --point-weights none|n|sd  weigh the drops by the repeat count or 1/sd^2 (default\n"
         "                         none, as appendix E)\n"
         "      --eps EPS          sd: tolerance on |F_new - F_old| (default 1e-3, the seed's)\n"
         "      --delta DELTA      sd: relative step and difference (default 0.01)\n"
         "      --max-iter N       sd: iteration limit (default 1000)\n"
         "      --max-evals N      evaluation budget per start (default 400 per free parameter;\n");
  char globals[256];
  global_names(globals, sizeof globals, "and");
  fprintf(f, "                         600 for %s, of which 1/3 polishes)\n", globals);
  global_names(globals, sizeof globals, "or");
  fprintf(f, "      --polish NAME|none local solver after %s (default %s)\n", globals,
          gc_fit_alg_name(GC_FIT_BOBYQA));
  fprintf(f,
          "      --starts N         multi-start: N starts, the first at the initial values, the\n"
          "                         others log-uniform within the bounds (default 1)\n"
          "      --seed S           seed of the multi-start and CRS2 random numbers (default 1)\n"
          "      --dt DT            drop simulation time step [s] (default 1e-6)\n"
          "      --gravity          gravity acts during the impacts (default: none, as sec. 6.5)\n"
          "      --report DIR       write summary.txt, fit.params, CSVs and gnuplot PNGs "
          "(P-alpha,\n"
          "                         e-v_in, objective history) into DIR\n"
          "      --undetermined hold|fit  a parameter the data do not determine (profile of F):\n"
          "                         hold it at the card's value and refit the others (default),\n"
          "                         or keep the free fit (it may end on a bound)\n"
          "  -v, --verbose          print the iteration history of every solver (sd: always)\n"
          "  -q, --quiet            no summary, no history\n"
          "  -h, --help             this help\n\n"
          "E and nu act only through E* = E/(1-nu^2): fix one (e.g. --fix nu=0.4).\n"
          "A verdict comes first: what the data determine, what is only bounded (95 %% profile of\n"
          "F), what was held, and which extra measurement would determine the rest.\n"
          "Data files: units in the header are converted (mm, cm, um, kN, ...), unknown columns\n"
          "are ignored with a note; several files of one kind are all used (granucal data FILE\n"
          "shows how a file is read).\n"
          "Exit status: 0 success, 1 bad input file or parameter or failed fit, 2 usage error.\n\n"
          "Example:\n"
          "  granucal fit -c data/soybean/soybean.card data/soybean/compression.csv \\\n"
          "      data/soybean/drops.csv --fix nu=0.4 -o soybean.params\n");
}

/* 1 if s is a number by the strict rules of gc_number_parse (no hex, nan, inf, junk) */
static int parse_num(const char *s, double *v)
{
  return gc_parse_double(s, v) == GC_NUM_OK;
}

enum {
  OPT_FIX = 256,
  OPT_FREE,
  OPT_BOUNDS,
  OPT_WA,
  OPT_WE,
  OPT_PW,
  OPT_EPS,
  OPT_DELTA,
  OPT_MAXIT,
  OPT_MAXEV,
  OPT_POLISH,
  OPT_STARTS,
  OPT_SEED,
  OPT_DT,
  OPT_GRAV,
  OPT_REPORT,
  OPT_COMP,
  OPT_DROPS,
  OPT_UNDET,
  OPT_LIST_ALG
};

typedef struct {
  int kind; /* OPT_FIX, OPT_FREE, OPT_BOUNDS */
  char *arg;
} par_op;

/* One run of `granucal fit`: the command line, the data, the problem and its result. */
typedef struct {
  int argc;  /* as typed (cmdline) */
  int nargs; /* of argv after the law options became --set (fit_parse) */
  char **argv, **cmdline;
  const char *card, *out, *report, *model_name;
  /* every compression and drop file given (options or by header) is used */
  const char **comps, **dropf, **paths;
  size_t ncomp, ndropf, npaths;
  const char *comp, *drops; /* the first of each, or NULL */
  char **sets;
  par_op *ops;
  size_t nsets, nops;
  double w_a, w_e, dt;
  int point_weights, gravity, verbose, quiet, hold;
  gc_fit_options o;
  int report_created;
  gc_dirlock report_lock;
  gc_params p;
  gc_card_extra x;
  const gc_preset *model;
  double mass;
  gc_fit_data data;
  gc_fit_setup set;
  gc_fit_problem pb;
  gc_fit_result res;
  gc_fit_ident id;
  int have_id, have_verdict;
  gc_fit_verdict *verdict;
  gc_cli_law_argbuf lawbuf; /* --normal NAME ... as --set normal=NAME (cli_common.h) */
} fit_job;

/* a parse that ends the command with status 0 (--help, --list-algorithms) */
enum { FIT_STOP = -1 };

static const char prog[] = "granucal fit";

static const struct option fit_long_opts[] = {
  { "card", required_argument, NULL, 'c' },
  { "set", required_argument, NULL, 's' },
  { "model", required_argument, NULL, 'm' },
  { "output", required_argument, NULL, 'o' },
  { "algorithm", required_argument, NULL, 'A' },
  { "fix", required_argument, NULL, OPT_FIX },
  { "free", required_argument, NULL, OPT_FREE },
  { "bounds", required_argument, NULL, OPT_BOUNDS },
  { "w-a", required_argument, NULL, OPT_WA },
  { "w-e", required_argument, NULL, OPT_WE },
  { "point-weights", required_argument, NULL, OPT_PW },
  { "eps", required_argument, NULL, OPT_EPS },
  { "delta", required_argument, NULL, OPT_DELTA },
  { "max-iter", required_argument, NULL, OPT_MAXIT },
  { "max-evals", required_argument, NULL, OPT_MAXEV },
  { "polish", required_argument, NULL, OPT_POLISH },
  { "starts", required_argument, NULL, OPT_STARTS },
  { "seed", required_argument, NULL, OPT_SEED },
  { "dt", required_argument, NULL, OPT_DT },
  { "gravity", no_argument, NULL, OPT_GRAV },
  { "report", required_argument, NULL, OPT_REPORT },
  { "compression", required_argument, NULL, OPT_COMP },
  { "drops", required_argument, NULL, OPT_DROPS },
  { "undetermined", required_argument, NULL, OPT_UNDET },
  { "list-algorithms", no_argument, NULL, OPT_LIST_ALG },
  { "verbose", no_argument, NULL, 'v' },
  { "quiet", no_argument, NULL, 'q' },
  { "help", no_argument, NULL, 'h' },
  { NULL, 0, NULL, 0 }
};

#define USAGE_FAIL(...)                                                                            \
  do {                                                                                             \
    fprintf(stderr, "%s: ", prog);                                                                 \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fprintf(stderr, "\n");                                                                         \
    return 2;                                                                                      \
  } while (0)

/* The options, into job; FIT_STOP, 0 or the usage status 2. */
static int fit_parse(fit_job *job)
{
  int argc = job->argc, c;
  char **argv = job->argv;
  optind = 1;
  opterr = 0;
  argc = job->nargs = gc_cli_law_args(argc, argv, fit_long_opts, &job->lawbuf);
  while ((c = getopt_long(argc, argv, ":c:m:s:o:A:vqh", fit_long_opts, NULL)) != -1) {
    double v;
    switch (c) {
    case 'c': job->card = optarg; break;
    case 'm': job->model_name = optarg; break;
    case 's': job->sets[job->nsets++] = optarg; break;
    case 'o': job->out = optarg; break;
    case 'A':
      job->o.algorithm = gc_fit_alg_lookup(optarg);
      if (job->o.algorithm < 0)
        USAGE_FAIL("unknown algorithm '%s' (see --help)", optarg);
      break;
    case OPT_FIX:
    case OPT_FREE:
    case OPT_BOUNDS:
      job->ops[job->nops].kind = c;
      job->ops[job->nops++].arg = optarg;
      break;
    case OPT_WA:
    case OPT_WE:
      if (!parse_num(optarg, &v) || v < 0)
        USAGE_FAIL("--%s = '%s' out of range [0, inf)", c == OPT_WA ? "w-a" : "w-e", optarg);
      *(c == OPT_WA ? &job->w_a : &job->w_e) = v;
      break;
    case OPT_PW:
      if (strcmp(optarg, "none") == 0)
        job->point_weights = GC_FIT_PW_NONE;
      else if (strcmp(optarg, "n") == 0)
        job->point_weights = GC_FIT_PW_COUNT;
      else if (strcmp(optarg, "sd") == 0)
        job->point_weights = GC_FIT_PW_SD;
      else
        USAGE_FAIL("--point-weights '%s': use none, n or sd", optarg);
      break;
    case OPT_EPS:
      if (!parse_num(optarg, &job->o.sd_eps) || !(job->o.sd_eps > 0))
        USAGE_FAIL("--eps = '%s' out of range (0, inf)", optarg);
      break;
    case OPT_DELTA:
      if (!parse_num(optarg, &job->o.sd_delta) || !(job->o.sd_delta > 0 && job->o.sd_delta < 1))
        USAGE_FAIL("--delta = '%s' out of range (0, 1)", optarg);
      break;
    case OPT_MAXIT:
    case OPT_MAXEV:
      if (!parse_num(optarg, &v) || !(v >= 1 && v <= 1e9) || v != floor(v))
        USAGE_FAIL("--%s = '%s' out of range [1, 1e9] (an integer)",
                   c == OPT_MAXIT ? "max-iter" : "max-evals", optarg);
      *(c == OPT_MAXIT ? &job->o.sd_max_iter : &job->o.max_evals) = (long)v;
      break;
    case OPT_POLISH:
      if (strcmp(optarg, "none") == 0)
        job->o.polish = -1;
      else if ((job->o.polish = gc_fit_alg_lookup(optarg)) < 0 ||
               gc_fit_alg_is_global(job->o.polish)) {
        char names[256];
        gc_fit_solver_names(names, sizeof names, 0, GC_FIT_SOLVER_GLOBAL);
        USAGE_FAIL("--polish '%s': use a local algorithm (%s) or none", optarg, names);
      }
      break;
    case OPT_STARTS:
      if (!parse_num(optarg, &v) || !(v >= 1 && v <= 100000) || v != floor(v))
        USAGE_FAIL("--starts = '%s' out of range [1, 100000] (an integer)", optarg);
      job->o.starts = (int)v;
      break;
    case OPT_SEED:
      if (!parse_num(optarg, &v) || !(v >= 0 && v <= 4294967295.0) || v != floor(v))
        USAGE_FAIL("--seed = '%s' out of range [0, 4294967295] (an integer)", optarg);
      job->o.seed = (unsigned long)v;
      break;
    case OPT_DT:
      if (!parse_num(optarg, &job->dt) || !(job->dt > 0 && job->dt < 1))
        USAGE_FAIL("--dt = '%s' out of range (0, 1) s", optarg);
      break;
    case OPT_GRAV: job->gravity = 1; break;
    case OPT_REPORT: job->report = optarg; break;
    case OPT_UNDET:
      if (strcmp(optarg, "hold") == 0)
        job->hold = 1;
      else if (strcmp(optarg, "fit") == 0)
        job->hold = 0;
      else
        USAGE_FAIL("--undetermined '%s': use hold or fit", optarg);
      break;
    case OPT_COMP: job->comps[job->ncomp++] = optarg; break;
    case OPT_DROPS: job->dropf[job->ndropf++] = optarg; break;
    case 'v': job->verbose = 1; break;
    case 'q': job->quiet = 1; break;
    case 'h': fit_usage(stdout); return FIT_STOP;
    case OPT_LIST_ALG: /* for the completion: the solver names, one a line */
      for (int a = 0; a < gc_fit_solver_count(); a++)
        printf("%s\n", gc_fit_alg_name(a));
      return FIT_STOP;
    default: /* ':' (missing value) or '?' (unknown option) */
      return gc_cli_bad_option(prog, c, argc, argv, optind, fit_long_opts);
    }
  }
  if (gc_cli_sets_check(prog, job->sets, job->nsets, argc, argv, optind))
    return 2;
  if (job->o.algorithm == GC_FIT_SD && job->o.polish == GC_FIT_SD)
    job->o.polish = GC_FIT_BOBYQA;
  const gc_fit_solver_type *polish = gc_fit_solver_at(job->o.polish);
  if (polish && !(polish->flags & GC_FIT_SOLVER_POLISHER) &&
      gc_fit_alg_is_global(job->o.algorithm)) {
    char names[256];
    gc_fit_solver_names(names, sizeof names, GC_FIT_SOLVER_POLISHER, 0);
    USAGE_FAIL("--polish: the polishing solver is an NLopt one (%s) or none", names);
  }
  return 0;
}

/* The operands: the card and the data files, each by the kind its header tells. */
static int fit_operands(fit_job *job)
{
  int argc = job->nargs;
  char **argv = job->argv;
  /* positional data files: the kind from the header */
  char msg[1024];
  for (int i = optind; i < argc; i++) {
    size_t al = strlen(argv[i]);
    if ((al > 5 && strcmp(argv[i] + al - 5, ".card") == 0) ||
        (al > 7 && strcmp(argv[i] + al - 7, ".params") == 0)) {
      /* a material card among the data files: the card, unless -c gave one */
      if (job->card && strcmp(job->card, argv[i]) != 0)
        USAGE_FAIL("two material cards: '%s' (-c) and '%s'", job->card, argv[i]);
      job->card = argv[i];
      continue;
    }
    /* a number where a data file is expected: the value of a --fix NAME VALUE written without
     * its '=' (a --fix without '=' holds NAME at its initial value and ends there) */
    double number;
    if (parse_num(argv[i], &number) && access(argv[i], F_OK) != 0) {
      const char *bare = NULL;
      for (size_t k = 0; k < job->nops; k++)
        if (job->ops[k].kind == OPT_FIX && !strchr(job->ops[k].arg, '='))
          bare = job->ops[k].arg;
      if (bare)
        USAGE_FAIL("'%s' is a number, not a data file: --fix takes NAME=VALUE (or NAME alone, "
                   "to hold the initial value): write --fix %s=%s",
                   argv[i], bare, argv[i]);
      USAGE_FAIL("'%s' is a number, not a data file: options take KEY=VALUE (--fix NAME=VALUE, "
                 "-s KEY=VALUE)",
                 argv[i]);
    }
    int kind = gc_fit_csv_kind(argv[i], msg, sizeof msg);
    if (kind <= 0) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      return 1;
    }
    if (kind == 3) {
      job->paths[job->npaths++] = argv[i];
      continue;
    }
    if (kind == 1)
      job->comps[job->ncomp++] = argv[i];
    else
      job->dropf[job->ndropf++] = argv[i];
  }
  job->comp = job->ncomp ? job->comps[0] : NULL;
  job->drops = job->ndropf ? job->dropf[0] : NULL;
  if (!job->comp && !job->drops && !job->npaths)
    USAGE_FAIL("no data: give a compression, a drop and/or load-path CSV files (see --help)");
  return 0;
}

/* No output may be an input or another output; the report directory made and locked. */
static int fit_outputs(fit_job *job)
{
  /* no output (the parameter file, the report's files) may be an input (the card and every
   * data file) or another output */
  gc_outplan plan;
  gc_outplan_init(&plan);
  gc_outplan_file(&plan, job->out, NULL);
  if (job->report)
    gc_fit_report_plan(job->report, &plan);
  gc_outplan_input(&plan, job->card, -1);
  for (size_t i = 0; i < job->ncomp; i++)
    gc_outplan_input(&plan, job->comps[i], -1);
  for (size_t i = 0; i < job->ndropf; i++)
    gc_outplan_input(&plan, job->dropf[i], -1);
  for (size_t i = 0; i < job->npaths; i++)
    gc_outplan_input(&plan, job->paths[i], -1);
  int clash = gc_cli_outplan_check(prog, &plan);
  gc_outplan_free(&plan);
  if (clash)
    return 1;
  /* one run at a time writes a report directory: made now (removed again if the fit fails
   * and leaves it empty) so that a second run is refused at its start, not after its fit */
  if (job->report) {
    struct stat sb;
    if (stat(job->report, &sb) != 0) {
      if (mkdir(job->report, 0777) != 0) {
        fprintf(stderr, "%s: %s: cannot create the report directory: %s\n", prog, job->report,
                strerror(errno));
        return 1;
      }
      job->report_created = 1;
    } else if (!S_ISDIR(sb.st_mode)) {
      fprintf(stderr, "%s: --report %s: exists and is not a directory\n", prog, job->report);
      return 1;
    }
    if (gc_cli_dirlock(prog, &job->report_lock, job->report))
      return 1;
  }
  return 0;
}

/* The card, the model, the particle and the data files; status 0, 1 or 2. */
static int fit_load(fit_job *job)
{
  int rc;
  char msg[1024];
  rc = gc_cli_load_params(prog, job->card, job->sets, job->nsets, &job->p, &job->x);
  if (rc)
    return rc;
  /* the model: -m, else the card's, else ep (appendix E); the fit calibrates a normal law
   * only, so no tangential part is resolved ("none") */
  const gc_preset *no_tfd;
  const char *bad;
  gc_kind bad_kind;
  if (gc_preset_resolve(job->model_name, "none", job->x.nfd, NULL, &job->model, &no_tfd, &bad,
                        &bad_kind)) {
    fprintf(stderr, "%s: '%s' is not a normal model; granucal fit calibrates one of:", prog, bad);
    for (size_t i = 0; i < gc_preset_count(); i++)
      if (gc_preset_at(i)->normal)
        fprintf(stderr, " %s", gc_preset_at(i)->name);
    fprintf(stderr, "\n");
    return 2;
  }
  const char *names[GC_NKINDS];
  const gc_submodel *no_rolling = NULL, *no_twisting = NULL;
  gc_card_law_names(&job->x, names);
  if (gc_law_compose(names, &job->model, &no_tfd, &no_rolling, &no_twisting, &bad_kind)) {
    char m[512];
    gc_law_key_check(bad_kind, gc_kind_name(bad_kind), names[bad_kind], m, sizeof m);
    fprintf(stderr, "%s: %s\n", prog, m);
    return 1;
  }
  job->mass = gc_cli_mass(&job->p, &job->x);
  if (!(job->p.R1 > 0)) {
    fprintf(stderr, "%s: the particle radius is unknown: give R [m] in the card (-c) or with -s\n",
            prog);
    return 1;
  }
  if (!(job->mass > 0) && job->drops) {
    fprintf(stderr,
            "%s: the particle mass is unknown: give m [kg] or rho [kg/m^3] in the card or "
            "with -s\n",
            prog);
    return 1;
  }
  if (!(job->mass > 0))
    job->mass = 1.0; /* unused without drops */

  for (size_t i = 0; i < job->ncomp + job->ndropf && !rc; i++) {
    gc_fit_data one;
    memset(&one, 0, sizeof one);
    int st1 = i < job->ncomp
                  ? gc_fit_read_compression(&one, job->comps[i], msg, sizeof msg)
                  : gc_fit_read_drops(&one, job->dropf[i - job->ncomp], GC_G, msg, sizeof msg);
    if (!st1)
      st1 = gc_data_check(&one, job->p.R1, msg, sizeof msg);
    if (!st1)
      st1 = gc_fit_data_append(&job->data, &one, msg, sizeof msg);
    gc_fit_data_free(&one);
    if (st1) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    }
  }
  for (size_t i = 0; i < job->npaths && !rc; i++) {
    gc_curve c;
    int st1 = gc_curve_read(job->paths[i], &c, msg, sizeof msg);
    if (!st1) {
      st1 = gc_curve_check(&c, job->p.R1, msg, sizeof msg);
      if (!st1)
        st1 = gc_fit_add_path(&job->data, &c, msg, sizeof msg);
      gc_curve_free(&c);
    }
    if (st1) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    }
  }
  if (rc) {
    gc_fit_data_free(&job->data);
    return rc;
  }
  if (!job->quiet) {
    /* what the readers converted or ignored, and weight columns the objective does not use */
    for (const char *q = job->data.notes; *q;) {
      const char *e = strchr(q, '\n');
      int l = e ? (int)(e - q) : (int)strlen(q);
      fprintf(stderr, "%s: note: %.*s\n", prog, l, q);
      q += l + (e != NULL);
    }
    if (job->data.has_sd && job->point_weights != GC_FIT_PW_SD)
      fprintf(stderr,
              "%s: note: %s: the column 'sd' is not used by the objective (weigh the drops "
              "by 1/sd^2 with --point-weights sd)\n",
              prog, job->data.drop_path);
    if (job->data.has_n && job->point_weights != GC_FIT_PW_COUNT)
      fprintf(stderr,
              "%s: note: %s: the column 'n' is not used by the objective (weigh the drops "
              "by n with --point-weights n)\n",
              prog, job->data.drop_path);
  }
  return 0;
}

/* The fit's parameters with --fix, --free and --bounds applied; status 0, 1 or 2. */
static int fit_setup(fit_job *job)
{
  int rc = 0;
  char msg[1024];
  int want_sY = 0; /* the yield parameter in its sY form when an option names sY */
  for (size_t i = 0; i < job->nops; i++) {
    const char *arg = job->ops[i].arg;
    size_t nl = strcspn(arg, "=");
    want_sY |= (nl == 2 && strncmp(arg, "sY", 2) == 0) || (nl == 3 && strncmp(arg, "sY1", 3) == 0);
  }
  if (gc_fit_setup_model(&job->set, job->model, want_sY, &job->p, job->mass, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s%s%s\n", prog, job->card ? job->card : "", job->card ? ": " : "", msg);
    gc_fit_data_free(&job->data);
    return 1;
  }
  job->set.w_a = job->w_a;
  job->set.w_e = job->w_e;
  job->set.point_weights = job->point_weights;
  job->set.drop.dt = job->dt;
  job->set.drop.g = job->gravity ? GC_G : 0.0;
  for (size_t i = 0; i < job->nops && !rc; i++) {
    char *arg = job->ops[i].arg, *eq = strchr(arg, '=');
    char name[32];
    size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(nl < sizeof name ? nl : sizeof name - 1), arg);
    if (job->ops[i].kind == OPT_FREE && strcmp(name, "all") == 0 && !eq) {
      for (int j = 0; j < job->set.npar; j++)
        job->set.is_free[j] = 1;
      continue;
    }
    int j = gc_fit_lookup(&job->set, name);
    if (j < 0) {
      const char *opt = job->ops[i].kind == OPT_FIX    ? "fix"
                        : job->ops[i].kind == OPT_FREE ? "free"
                                                       : "bounds";
      const gc_param_def *d = gc_param_lookup(name);
      char fit_list[256] = "", other_list[256] = "";
      for (int k = 0; k < job->set.npar; k++)
        snprintf(fit_list + strlen(fit_list), sizeof fit_list - strlen(fit_list), "%s%s",
                 k ? ", " : "", gc_fit_name(&job->set, k));
      gc_param_id ids[GC_FIT_MAXPAR], other[GC_NPAR];
      int nids = 0, nother = 0;
      char sub[256];
      if (gc_fit_model_params(job->model, &job->set.base, job->mass, want_sY, ids, &nids, other,
                              &nother, sub, sizeof sub) == GC_SUCCESS)
        for (int k = 0; k < nother; k++)
          snprintf(other_list + strlen(other_list), sizeof other_list - strlen(other_list), "%s%s",
                   k ? ", " : "", gc_param_def_at(other[k])->key);
      gc_suggest sg;
      gc_suggest_init(&sg, name);
      for (int k = 0; k < job->set.npar; k++)
        gc_suggest_add(&sg, gc_fit_name(&job->set, k));
      char dym[96];
      if (!d)
        fprintf(stderr, "%s: --%s '%s': unknown parameter%s (model '%s' fits %s)\n", prog, opt,
                name, gc_suggest_text(&sg, dym, sizeof dym), job->model->name, fit_list);
      else if (!gc_fit_model_reads(job->model, gc_param_id_of(d)))
        fprintf(stderr,
                "%s: --%s '%s': model '%s' does not read %s; the parameters it fits: %s%s%s%s\n",
                prog, opt, name, job->model->name, d->key, fit_list,
                other_list[0] ? " (it also reads " : "", other_list,
                other_list[0] ? ", which granucal fit cannot calibrate)" : "");
      else
        fprintf(stderr,
                "%s: --%s '%s': model '%s' reads %s, but granucal fit cannot calibrate it "
                "(%s); the parameters it fits: %s\n",
                prog, opt, name, job->model->name, d->key,
                d->is_int ? "a switch, not a number"
                : gc_param_id_of(d) == GC_PAR_P_Y || gc_param_id_of(d) == GC_PAR_SY1
                    ? "P_Y and sY are one parameter: name one of them, not both"
                : gc_fit_scene_param(gc_param_id_of(d))
                    ? "the test gives it: a sphere of the card's R and m on a rigid plane"
                    : "it does not change the model's normal force",
                fit_list);
      rc = 2;
      break;
    }
    double v, lo, hi;
    switch (job->ops[i].kind) {
    case OPT_FIX:
      if (eq) {
        if (!parse_num(eq + 1, &v)) {
          fprintf(stderr, "%s: --fix %s: '%s' is not a finite number\n", prog, name, eq + 1);
          rc = 2;
          break;
        }
        job->set.trial[j] = v;
      }
      job->set.is_free[j] = 0;
      break;
    case OPT_FREE:
      if (eq) {
        fprintf(stderr, "%s: --free %s: no value expected (set the initial value with -s)\n", prog,
                arg);
        rc = 2;
        break;
      }
      job->set.is_free[j] = 1;
      break;
    default: { /* bounds NAME=LO:HI */
      char *colon = eq ? strchr(eq + 1, ':') : NULL;
      if (colon)
        *colon = 0;
      int okb = colon && parse_num(eq + 1, &lo) && parse_num(colon + 1, &hi);
      if (colon)
        *colon = ':';
      if (!okb) {
        fprintf(stderr, "%s: --bounds '%s': expected NAME=LO:HI with numbers\n", prog, arg);
        rc = 2;
        break;
      }
      job->set.lo[j] = lo;
      job->set.hi[j] = hi;
    }
    }
  }
  if (rc) {
    gc_fit_data_free(&job->data);
    return rc;
  }
  return 0;
}

/* The fit, then what the data determine: profiles, held parameters, refit. */
static int fit_solve(fit_job *job)
{
  char msg[1024];
  if (gc_fit_problem_init(&job->pb, &job->set, &job->data, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    gc_fit_data_free(&job->data);
    return 1;
  }
  unsigned flags = gc_fit_solver_at(job->o.algorithm)->flags;
  if (!job->quiet && (job->verbose || (flags & GC_FIT_SOLVER_HISTORY)))
    job->o.log = stderr;
  job->verdict = calloc(1, sizeof *job->verdict);
  int st = job->verdict ? gc_fit_run(&job->pb, &job->o, &job->res, msg, sizeof msg) : GC_ENOMEM;
  if (!job->verdict)
    snprintf(msg, sizeof msg, "out of memory");
  if (!st && job->pb.n_res > (size_t)job->pb.nfree) {
    /* What the data determine: profiles of F along each free parameter.  A parameter they do not
     * bound on both sides is held (the card's value when the data allow it) and the others are
     * refitted with it, so that a bound of the search box never becomes a calibrated value. */
    char vmsg[256];
    /* The result is the best point any stage evaluated: when a profile's refit found a lower
     * one, the solver restarts from it and the profiles are run again (three rounds at most). */
    for (int round = 0; !st; round++) {
      job->have_verdict = gc_fit_verdict_profile(&job->pb, job->res.p, job->res.val.F, job->verdict,
                                                 vmsg, sizeof vmsg) == GC_SUCCESS;
      double qb[GC_FIT_MAXPAR], Fb;
      if (!job->have_verdict || round == 3)
        break;
      gc_fit_verdict_best(&job->pb, job->verdict, qb, &Fb);
      double F = job->res.val.F;
      if (!(Fb < F - 1e-6 * F - 1e-12 * (job->pb.set.w_a + job->pb.set.w_e)))
        break;
      if (!job->quiet && job->o.log)
        fprintf(stderr, "\nrestart from the lowest point of the profiles (F = %.7g):\n", Fb);
      gc_fit_options o2 = job->o;
      o2.starts = 1;
      o2.have_start = 1;
      memcpy(o2.start, qb, sizeof o2.start);
      gc_fit_result res2;
      st = gc_fit_run(&job->pb, &o2, &res2, msg, sizeof msg);
      if (st)
        break;
      res2.nevals += job->res.nevals;
      if (res2.val.F < job->res.val.F) {
        gc_fit_result_free(&job->res);
        job->res = res2;
      } else {
        gc_fit_result_free(&res2);
        break;
      }
    }
    if (!job->have_verdict && !st)
      fprintf(stderr, "%s: warning: no identifiability profile: %s\n", prog, vmsg);
    if (job->have_verdict && !job->res.converged) {
      job->verdict->unconverged = 1;
      snprintf(job->verdict->why, sizeof job->verdict->why, "%s", job->res.stop);
    }
    int nheld = 0;
    gc_fit_setup set2 = job->pb.set;
    int hold = job->have_verdict && job->hold && !job->verdict->unconverged;
    for (int j = 0; hold && j < job->pb.set.npar; j++) {
      const gc_fit_profile *pr = &job->verdict->prof[j];
      if (pr->j < 0 || pr->cls == GC_FIT_DETERMINED)
        continue;
      double t = job->set.trial[j];
      int inside = t >= pr->lo * (1 - 1e-9) && t <= pr->hi * (1 + 1e-9);
      job->verdict->held[j] = 1;
      job->verdict->hold_from_card[j] = inside;
      job->verdict->hold[j] = inside ? t : t < pr->lo ? pr->lo : pr->hi;
      set2.trial[j] = job->verdict->hold[j];
      set2.is_free[j] = 0;
      nheld++;
    }
    if (nheld && nheld < job->pb.nfree) {
      job->verdict->mode = 1;
      set2.norm_Fa = job->pb.Fa_ref;
      set2.norm_Fe = job->pb.Fe_ref;
      gc_fit_problem pb2;
      gc_fit_result res2;
      if (!job->quiet && job->o.log)
        fprintf(stderr, "\nrefit with the parameters the data do not determine held:\n");
      st = gc_fit_problem_init(&pb2, &set2, &job->data, msg, sizeof msg);
      if (!st) {
        st = gc_fit_run(&pb2, &job->o, &res2, msg, sizeof msg);
        res2.nevals += job->res.nevals;
        if (st)
          gc_fit_problem_free(&pb2);
      }
      if (!st) {
        gc_fit_result_free(&job->res);
        gc_fit_problem_free(&job->pb);
        job->pb = pb2;
        job->res = res2;
      }
    } else {
      for (int j = 0; j < GC_FIT_MAXPAR; j++)
        job->verdict->held[j] = 0;
    }
  }
  if (st) {
    fprintf(stderr, "%s: the fit failed: %s\n", prog, msg);
    return 1;
  }
  return 0;
}

/* The verdict, the summary, the report directory and the parameter file. */
static int fit_write(fit_job *job)
{
  int rc = 0;
  char msg[1024];
  job->have_id =
      gc_fit_identify(&job->pb, job->res.p, 1e-4, &job->id, msg, sizeof msg) == GC_SUCCESS;
  if (!job->have_id)
    fprintf(stderr, "%s: warning: %s\n", prog, msg);
  if (job->have_id && job->have_verdict &&
      gc_fit_advise(&job->pb, job->res.p, &job->id, job->verdict, msg, sizeof msg))
    fprintf(stderr, "%s: warning: %s\n", prog, msg);
  if (job->have_verdict && gc_fit_verdict_quality(&job->pb, job->res.p, job->verdict))
    fprintf(stderr, "%s: warning: the residuals at the result could not be computed\n", prog);
  if (!job->quiet) {
    if (job->o.log)
      fprintf(stderr, "\n");
    if (job->have_verdict)
      gc_fit_print_verdict(stderr, &job->pb, job->res.p, job->have_id ? &job->id : NULL,
                           job->verdict);
    gc_fit_print_summary(stderr, &job->pb, &job->o, &job->res, job->have_id ? &job->id : NULL,
                         job->have_verdict ? job->verdict : NULL);
  }
  /* provenance: version, command line, date, CRC-32 of the card and every data file */
  char *comment = NULL;
  size_t comment_len = 0;
  FILE *cf = open_memstream(&comment, &comment_len);
  if (cf) {
    const char **inputs = calloc(job->ncomp + job->ndropf + job->npaths + 1, sizeof *inputs);
    size_t ni = 0;
    if (inputs) {
      inputs[ni++] = job->card;
      for (size_t i = 0; i < job->ncomp; i++)
        inputs[ni++] = job->comps[i];
      for (size_t i = 0; i < job->ndropf; i++)
        inputs[ni++] = job->dropf[i];
      for (size_t i = 0; i < job->npaths; i++)
        inputs[ni++] = job->paths[i];
    }
    gc_provenance_write(cf, "", job->argc, job->cmdline, inputs, ni);
    free(inputs);
    fclose(cf);
  }
  if (comment && comment_len && comment[comment_len - 1] == '\n')
    comment[comment_len - 1] = 0;
  gc_outfile of;
  if (job->report) {
    int warn = 0;
    if (gc_fit_write_report(job->report, &job->pb, &job->o, &job->res,
                            job->have_id ? &job->id : NULL, job->have_verdict ? job->verdict : NULL,
                            &job->x, comment, &warn, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    } else {
      if (warn)
        fprintf(stderr,
                "%s: warning: gnuplot failed or is not installed (on Debian: apt-get "
                "install gnuplot-nox): %s has no PNGs; run 'gnuplot plot-fit.gp' there\n",
                prog, job->report);
      if (!job->quiet)
        fprintf(stderr, "report written to %s/\n", job->report);
    }
  }
  if (!rc && (job->out || !job->report)) {
    if (gc_outfile_open(&of, job->out, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    } else if (gc_fit_write_params(of.f, &job->pb, &job->res, &job->x, comment)) {
      fprintf(stderr, "%s: %s: write error\n", prog, job->out ? job->out : "standard output");
      gc_outfile_abort(&of);
      rc = 1;
    } else if (gc_outfile_commit(&of, msg, sizeof msg)) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      gc_outfile_abort(&of);
      rc = 1;
    } else if (job->out && !job->quiet) {
      fprintf(stderr, "parameters written to %s\n", job->out);
    }
  }
  free(comment);
  return rc;
}

#undef USAGE_FAIL

int gc_cmd_fit(int argc, char **argv)
{
  /* the command line as typed, for the provenance record (getopt_long permutes argv) */
  char *cmdline[argc + 1];
  memcpy(cmdline, argv, (size_t)(argc + 1) * sizeof *argv);
  fit_job job = { .argc = argc,
                  .argv = argv,
                  .cmdline = cmdline,
                  .w_a = 0.1,
                  .w_e = 0.9,
                  .dt = 1e-6,
                  .point_weights = GC_FIT_PW_NONE,
                  .hold = 1,
                  .report_lock = GC_DIRLOCK_INIT };
  gc_fit_options_default(&job.o);
  job.comps = calloc((size_t)argc + 1, sizeof *job.comps);
  job.dropf = calloc((size_t)argc + 1, sizeof *job.dropf);
  job.paths = calloc((size_t)argc + 1, sizeof *job.paths);
  job.sets = calloc((size_t)argc + 1, sizeof *job.sets);
  job.ops = calloc((size_t)argc + 1, sizeof *job.ops);
  int rc = 1;
  if (job.comps && job.dropf && job.paths && job.sets && job.ops) {
    /* parse -> data -> problem -> fit -> report */
    rc = fit_parse(&job);
    if (!rc)
      rc = fit_operands(&job);
    if (!rc)
      rc = fit_outputs(&job);
    if (!rc)
      rc = fit_load(&job);
    if (!rc)
      rc = fit_setup(&job);
    if (!rc)
      rc = fit_solve(&job);
    if (!rc)
      rc = fit_write(&job);
    if (rc == FIT_STOP)
      rc = 0;
  }
  if (job.have_id)
    gc_fit_ident_free(&job.id);
  free(job.verdict);
  gc_fit_result_free(&job.res);
  gc_fit_problem_free(&job.pb);
  gc_fit_data_free(&job.data);
  gc_dirlock_release(&job.report_lock);
  if (rc && job.report_created)
    rmdir(job.report); /* only if empty */
  free(job.comps);
  free(job.dropf);
  free(job.paths);
  free(job.sets);
  free(job.ops);
  return rc;
}
