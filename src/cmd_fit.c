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

static void fit_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal fit [-c] CARD [-m MODEL] [-s KEY=VALUE]... DATA.csv... [-o OUT.params]\n"
          "                    [-A ALGORITHM] [--fix NAME[=VALUE]]... [--free NAME|all]...\n"
          "                    [--bounds NAME=LO:HI]... [--w-a W] [--w-e W] [--point-weights none|n|sd]\n"
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
  for (int a = 0; a < GC_FIT_NALG; a++)
    fprintf(f, "                           %-11s %s\n", gc_fit_alg_name(a), gc_fit_alg_description(a));
  fprintf(f,
          "      --fix NAME[=V]     hold a parameter of the model at V or its initial value\n"
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
          "      --max-evals N      evaluation budget per start (default 400 per free parameter;\n"
          "                         600 for direct and crs2, of which 1/3 polishes)\n"
          "      --polish NAME|none local solver after direct or crs2 (default bobyqa)\n"
          "      --starts N         multi-start: N starts, the first at the initial values, the\n"
          "                         others log-uniform within the bounds (default 1)\n"
          "      --seed S           seed of the multi-start and CRS2 random numbers (default 1)\n"
          "      --dt DT            drop simulation time step [s] (default 1e-6)\n"
          "      --gravity          gravity acts during the impacts (default: none, as sec. 6.5)\n"
          "      --report DIR       write summary.txt, fit.params, CSVs and gnuplot PNGs (P-alpha,\n"
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
static int parse_num(const char *s, double *v) { return gc_parse_double(s, v) == GC_NUM_OK; }

enum { OPT_FIX = 256, OPT_FREE, OPT_BOUNDS, OPT_WA, OPT_WE, OPT_PW, OPT_EPS, OPT_DELTA,
       OPT_MAXIT, OPT_MAXEV, OPT_POLISH, OPT_STARTS, OPT_SEED, OPT_DT, OPT_GRAV, OPT_REPORT,
       OPT_COMP, OPT_DROPS, OPT_UNDET };

typedef struct {
  int kind; /* OPT_FIX, OPT_FREE, OPT_BOUNDS */
  char *arg;
} par_op;

int gc_cmd_fit(int argc, char **argv)
{
  static const struct option opts[] = {
    { "card", required_argument, NULL, 'c' },      { "set", required_argument, NULL, 's' },
    { "model", required_argument, NULL, 'm' },
    { "output", required_argument, NULL, 'o' },    { "algorithm", required_argument, NULL, 'A' },
    { "fix", required_argument, NULL, OPT_FIX },    { "free", required_argument, NULL, OPT_FREE },
    { "bounds", required_argument, NULL, OPT_BOUNDS }, { "w-a", required_argument, NULL, OPT_WA },
    { "w-e", required_argument, NULL, OPT_WE },     { "point-weights", required_argument, NULL, OPT_PW },
    { "eps", required_argument, NULL, OPT_EPS },    { "delta", required_argument, NULL, OPT_DELTA },
    { "max-iter", required_argument, NULL, OPT_MAXIT },
    { "max-evals", required_argument, NULL, OPT_MAXEV },
    { "polish", required_argument, NULL, OPT_POLISH },
    { "starts", required_argument, NULL, OPT_STARTS }, { "seed", required_argument, NULL, OPT_SEED },
    { "dt", required_argument, NULL, OPT_DT },      { "gravity", no_argument, NULL, OPT_GRAV },
    { "report", required_argument, NULL, OPT_REPORT },
    { "compression", required_argument, NULL, OPT_COMP },
    { "drops", required_argument, NULL, OPT_DROPS },
    { "undetermined", required_argument, NULL, OPT_UNDET },
    { "verbose", no_argument, NULL, 'v' },          { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },             { NULL, 0, NULL, 0 }
  };
  const char *prog = "granucal fit";
  const char *card = NULL, *out = NULL, *report = NULL, *model_name = NULL;
  /* every compression and drop file given (options or by header) is used */
  const char **comps = calloc((size_t)argc + 1, sizeof *comps);
  const char **dropf = calloc((size_t)argc + 1, sizeof *dropf);
  size_t ncomp = 0, ndropf = 0;
  double w_a = 0.1, w_e = 0.9, dt = 1e-6;
  int point_weights = GC_FIT_PW_NONE, gravity = 0, verbose = 0, quiet = 0, hold = 1, c;
  gc_fit_options o;
  gc_fit_options_default(&o);
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  par_op *ops = calloc((size_t)argc + 1, sizeof *ops);
  const char **paths = calloc((size_t)argc + 1, sizeof *paths);
  size_t nsets = 0, nops = 0, npaths = 0;
  int rc = 0, report_created = 0;
  gc_dirlock report_lock = GC_DIRLOCK_INIT;
  if (!sets || !ops || !comps || !dropf || !paths) {
    free(sets);
    free(ops);
    free(comps);
    free(dropf);
    free(paths);
    return 1;
  }
#define USAGE_FAIL(...)                                                                            \
  do {                                                                                             \
    fprintf(stderr, "%s: ", prog);                                                                 \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fprintf(stderr, "\n");                                                                         \
    rc = 2;                                                                                        \
    goto done;                                                                                     \
  } while (0)
  optind = 1;
  opterr = 0;
  /* the command line as typed, for the provenance record (getopt_long permutes argv) */
  char *cmdline[argc + 1];
  memcpy(cmdline, argv, (size_t)(argc + 1) * sizeof *argv);
  gc_cli_law_argbuf lawbuf; /* --normal NAME ... as --set normal=NAME (cli_common.h) */
  argc = gc_cli_law_args(argc, argv, opts, &lawbuf);
  while ((c = getopt_long(argc, argv, ":c:m:s:o:A:vqh", opts, NULL)) != -1) {
    double v;
    switch (c) {
    case 'c': card = optarg; break;
    case 'm': model_name = optarg; break;
    case 's': sets[nsets++] = optarg; break;
    case 'o': out = optarg; break;
    case 'A':
      o.algorithm = gc_fit_alg_lookup(optarg);
      if (o.algorithm < 0)
        USAGE_FAIL("unknown algorithm '%s' (see --help)", optarg);
      break;
    case OPT_FIX:
    case OPT_FREE:
    case OPT_BOUNDS:
      ops[nops].kind = c;
      ops[nops++].arg = optarg;
      break;
    case OPT_WA:
    case OPT_WE:
      if (!parse_num(optarg, &v) || v < 0)
        USAGE_FAIL("--%s = '%s' out of range [0, inf)", c == OPT_WA ? "w-a" : "w-e", optarg);
      *(c == OPT_WA ? &w_a : &w_e) = v;
      break;
    case OPT_PW:
      if (strcmp(optarg, "none") == 0)
        point_weights = GC_FIT_PW_NONE;
      else if (strcmp(optarg, "n") == 0)
        point_weights = GC_FIT_PW_COUNT;
      else if (strcmp(optarg, "sd") == 0)
        point_weights = GC_FIT_PW_SD;
      else
        USAGE_FAIL("--point-weights '%s': use none, n or sd", optarg);
      break;
    case OPT_EPS:
      if (!parse_num(optarg, &o.sd_eps) || !(o.sd_eps > 0))
        USAGE_FAIL("--eps = '%s' out of range (0, inf)", optarg);
      break;
    case OPT_DELTA:
      if (!parse_num(optarg, &o.sd_delta) || !(o.sd_delta > 0 && o.sd_delta < 1))
        USAGE_FAIL("--delta = '%s' out of range (0, 1)", optarg);
      break;
    case OPT_MAXIT:
    case OPT_MAXEV:
      if (!parse_num(optarg, &v) || !(v >= 1 && v <= 1e9) || v != floor(v))
        USAGE_FAIL("--%s = '%s' out of range [1, 1e9] (an integer)",
                   c == OPT_MAXIT ? "max-iter" : "max-evals", optarg);
      *(c == OPT_MAXIT ? &o.sd_max_iter : &o.max_evals) = (long)v;
      break;
    case OPT_POLISH:
      if (strcmp(optarg, "none") == 0)
        o.polish = -1;
      else if ((o.polish = gc_fit_alg_lookup(optarg)) < 0 || gc_fit_alg_is_global(o.polish))
        USAGE_FAIL("--polish '%s': use a local algorithm (lm, sd, bobyqa, neldermead, sbplx) or none",
                   optarg);
      break;
    case OPT_STARTS:
      if (!parse_num(optarg, &v) || !(v >= 1 && v <= 100000) || v != floor(v))
        USAGE_FAIL("--starts = '%s' out of range [1, 100000] (an integer)", optarg);
      o.starts = (int)v;
      break;
    case OPT_SEED:
      if (!parse_num(optarg, &v) || !(v >= 0 && v <= 4294967295.0) || v != floor(v))
        USAGE_FAIL("--seed = '%s' out of range [0, 4294967295] (an integer)", optarg);
      o.seed = (unsigned long)v;
      break;
    case OPT_DT:
      if (!parse_num(optarg, &dt) || !(dt > 0 && dt < 1))
        USAGE_FAIL("--dt = '%s' out of range (0, 1) s", optarg);
      break;
    case OPT_GRAV: gravity = 1; break;
    case OPT_REPORT: report = optarg; break;
    case OPT_UNDET:
      if (strcmp(optarg, "hold") == 0)
        hold = 1;
      else if (strcmp(optarg, "fit") == 0)
        hold = 0;
      else
        USAGE_FAIL("--undetermined '%s': use hold or fit", optarg);
      break;
    case OPT_COMP: comps[ncomp++] = optarg; break;
    case OPT_DROPS: dropf[ndropf++] = optarg; break;
    case 'v': verbose = 1; break;
    case 'q': quiet = 1; break;
    case 'h': fit_usage(stdout); goto done;
    default: /* ':' (missing value) or '?' (unknown option) */
      rc = gc_cli_bad_option(prog, c, argc, argv, optind, opts);
      goto done;
    }
  }
  if (gc_cli_sets_check(prog, sets, nsets, argc, argv, optind)) {
    rc = 2;
    goto done;
  }
  if (o.algorithm == GC_FIT_SD && o.polish == GC_FIT_SD)
    o.polish = GC_FIT_BOBYQA;
  if ((o.polish == GC_FIT_LM || o.polish == GC_FIT_SD) && gc_fit_alg_is_global(o.algorithm))
    USAGE_FAIL("--polish: the polishing solver is an NLopt one (bobyqa, neldermead, sbplx) or none");
  /* positional data files: the kind from the header */
  char msg[1024];
  for (int i = optind; i < argc; i++) {
    size_t al = strlen(argv[i]);
    if ((al > 5 && strcmp(argv[i] + al - 5, ".card") == 0) ||
        (al > 7 && strcmp(argv[i] + al - 7, ".params") == 0)) {
      /* a material card among the data files: the card, unless -c gave one */
      if (card && strcmp(card, argv[i]) != 0)
        USAGE_FAIL("two material cards: '%s' (-c) and '%s'", card, argv[i]);
      card = argv[i];
      continue;
    }
    /* a number where a data file is expected: the value of a --fix NAME VALUE written without
     * its '=' (a --fix without '=' holds NAME at its initial value and ends there) */
    double number;
    if (parse_num(argv[i], &number) && access(argv[i], F_OK) != 0) {
      const char *bare = NULL;
      for (size_t k = 0; k < nops; k++)
        if (ops[k].kind == OPT_FIX && !strchr(ops[k].arg, '='))
          bare = ops[k].arg;
      if (bare)
        USAGE_FAIL("'%s' is a number, not a data file: --fix takes NAME=VALUE (or NAME alone, "
                   "to hold the initial value): write --fix %s=%s", argv[i], bare, argv[i]);
      USAGE_FAIL("'%s' is a number, not a data file: options take KEY=VALUE (--fix NAME=VALUE, "
                 "-s KEY=VALUE)", argv[i]);
    }
    int kind = gc_fit_csv_kind(argv[i], msg, sizeof msg);
    if (kind <= 0) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
      goto done;
    }
    if (kind == 3) {
      paths[npaths++] = argv[i];
      continue;
    }
    if (kind == 1)
      comps[ncomp++] = argv[i];
    else
      dropf[ndropf++] = argv[i];
  }
  const char *comp = ncomp ? comps[0] : NULL, *drops = ndropf ? dropf[0] : NULL;
  if (!comp && !drops && !npaths)
    USAGE_FAIL("no data: give a compression, a drop and/or load-path CSV files (see --help)");
  {
    /* no output (the parameter file, the report's files) may be an input (the card and every
     * data file) or another output */
    gc_outplan plan;
    gc_outplan_init(&plan);
    gc_outplan_file(&plan, out, NULL);
    if (report)
      gc_fit_report_plan(report, &plan);
    gc_outplan_input(&plan, card, -1);
    for (size_t i = 0; i < ncomp; i++)
      gc_outplan_input(&plan, comps[i], -1);
    for (size_t i = 0; i < ndropf; i++)
      gc_outplan_input(&plan, dropf[i], -1);
    for (size_t i = 0; i < npaths; i++)
      gc_outplan_input(&plan, paths[i], -1);
    int clash = gc_cli_outplan_check(prog, &plan);
    gc_outplan_free(&plan);
    if (clash) {
      rc = 1;
      goto done;
    }
    /* one run at a time writes a report directory: made now (removed again if the fit fails
     * and leaves it empty) so that a second run is refused at its start, not after its fit */
    if (report) {
      struct stat sb;
      if (stat(report, &sb) != 0) {
        if (mkdir(report, 0777) != 0) {
          fprintf(stderr, "%s: %s: cannot create the report directory: %s\n", prog, report,
                  strerror(errno));
          rc = 1;
          goto done;
        }
        report_created = 1;
      } else if (!S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "%s: --report %s: exists and is not a directory\n", prog, report);
        rc = 1;
        goto done;
      }
      if (gc_cli_dirlock(prog, &report_lock, report)) {
        rc = 1;
        goto done;
      }
    }
  }

  gc_params p;
  gc_card_extra x;
  rc = gc_cli_load_params(prog, card, sets, nsets, &p, &x);
  if (rc)
    goto done;
  /* the model: -m, else the card's, else ep (appendix E); the fit calibrates a normal law
   * only, so no tangential part is resolved ("none") */
  const gc_preset *model, *no_tfd;
  const char *bad;
  gc_kind bad_kind;
  if (gc_preset_resolve(model_name, "none", x.nfd, NULL, &model, &no_tfd, &bad, &bad_kind)) {
    fprintf(stderr, "%s: '%s' is not a normal model; granucal fit calibrates one of:", prog,
            bad);
    for (size_t i = 0; i < gc_preset_count(); i++)
      if (gc_preset_at(i)->normal)
        fprintf(stderr, " %s", gc_preset_at(i)->name);
    fprintf(stderr, "\n");
    rc = 2;
    goto done;
  }
  const char *names[GC_NKINDS];
  const gc_submodel *no_rolling = NULL, *no_twisting = NULL;
  gc_card_law_names(&x, names);
  if (gc_law_compose(names, &model, &no_tfd, &no_rolling, &no_twisting, &bad_kind)) {
    char m[512];
    gc_law_key_check(bad_kind, gc_kind_name(bad_kind), names[bad_kind], m, sizeof m);
    fprintf(stderr, "%s: %s\n", prog, m);
    rc = 1;
    goto done;
  }
  double mass = gc_cli_mass(&p, &x);
  if (!(p.R1 > 0)) {
    fprintf(stderr, "%s: the particle radius is unknown: give R [m] in the card (-c) or with -s\n",
            prog);
    rc = 1;
    goto done;
  }
  if (!(mass > 0) && drops) {
    fprintf(stderr, "%s: the particle mass is unknown: give m [kg] or rho [kg/m^3] in the card or "
                    "with -s\n", prog);
    rc = 1;
    goto done;
  }
  if (!(mass > 0))
    mass = 1.0; /* unused without drops */

  gc_fit_data data;
  memset(&data, 0, sizeof data);
  for (size_t i = 0; i < ncomp + ndropf && !rc; i++) {
    gc_fit_data one;
    memset(&one, 0, sizeof one);
    int st1 = i < ncomp ? gc_fit_read_compression(&one, comps[i], msg, sizeof msg)
                        : gc_fit_read_drops(&one, dropf[i - ncomp], GC_G, msg, sizeof msg);
    if (!st1)
      st1 = gc_data_check(&one, p.R1, msg, sizeof msg);
    if (!st1)
      st1 = gc_fit_data_append(&data, &one, msg, sizeof msg);
    gc_fit_data_free(&one);
    if (st1) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    }
  }
  for (size_t i = 0; i < npaths && !rc; i++) {
    gc_curve c;
    int st1 = gc_curve_read(paths[i], &c, msg, sizeof msg);
    if (!st1) {
      st1 = gc_curve_check(&c, p.R1, msg, sizeof msg);
      if (!st1)
        st1 = gc_fit_add_path(&data, &c, msg, sizeof msg);
      gc_curve_free(&c);
    }
    if (st1) {
      fprintf(stderr, "%s: %s\n", prog, msg);
      rc = 1;
    }
  }
  if (rc) {
    gc_fit_data_free(&data);
    goto done;
  }
  if (!quiet) {
    /* what the readers converted or ignored, and weight columns the objective does not use */
    for (const char *q = data.notes; *q;) {
      const char *e = strchr(q, '\n');
      int l = e ? (int)(e - q) : (int)strlen(q);
      fprintf(stderr, "%s: note: %.*s\n", prog, l, q);
      q += l + (e != NULL);
    }
    if (data.has_sd && point_weights != GC_FIT_PW_SD)
      fprintf(stderr, "%s: note: %s: the column 'sd' is not used by the objective (weigh the drops "
                      "by 1/sd^2 with --point-weights sd)\n", prog, data.drop_path);
    if (data.has_n && point_weights != GC_FIT_PW_COUNT)
      fprintf(stderr, "%s: note: %s: the column 'n' is not used by the objective (weigh the drops "
                      "by n with --point-weights n)\n", prog, data.drop_path);
  }

  gc_fit_setup set;
  int want_sY = 0; /* the yield parameter in its sY form when an option names sY */
  for (size_t i = 0; i < nops; i++) {
    const char *arg = ops[i].arg;
    size_t nl = strcspn(arg, "=");
    want_sY |= (nl == 2 && strncmp(arg, "sY", 2) == 0) || (nl == 3 && strncmp(arg, "sY1", 3) == 0);
  }
  if (gc_fit_setup_model(&set, model, want_sY, &p, mass, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
    gc_fit_data_free(&data);
    rc = 1;
    goto done;
  }
  set.w_a = w_a;
  set.w_e = w_e;
  set.point_weights = point_weights;
  set.drop.dt = dt;
  set.drop.g = gravity ? GC_G : 0.0;
  for (size_t i = 0; i < nops && !rc; i++) {
    char *arg = ops[i].arg, *eq = strchr(arg, '=');
    char name[32];
    size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(nl < sizeof name ? nl : sizeof name - 1), arg);
    if (ops[i].kind == OPT_FREE && strcmp(name, "all") == 0 && !eq) {
      for (int j = 0; j < set.npar; j++)
        set.is_free[j] = 1;
      continue;
    }
    int j = gc_fit_lookup(&set, name);
    if (j < 0) {
      const char *opt = ops[i].kind == OPT_FIX ? "fix" : ops[i].kind == OPT_FREE ? "free" : "bounds";
      const gc_param_def *d = gc_param_lookup(name);
      char fit_list[256] = "", other_list[256] = "";
      for (int k = 0; k < set.npar; k++)
        snprintf(fit_list + strlen(fit_list), sizeof fit_list - strlen(fit_list), "%s%s",
                 k ? ", " : "", gc_fit_name(&set, k));
      gc_param_id ids[GC_FIT_MAXPAR], other[GC_NPAR];
      int nids = 0, nother = 0;
      char sub[256];
      if (gc_fit_model_params(model, &set.base, mass, want_sY, ids, &nids, other, &nother, sub,
                              sizeof sub) == GC_SUCCESS)
        for (int k = 0; k < nother; k++)
          snprintf(other_list + strlen(other_list), sizeof other_list - strlen(other_list),
                   "%s%s", k ? ", " : "", gc_param_def_at(other[k])->key);
      gc_suggest sg;
      gc_suggest_init(&sg, name);
      for (int k = 0; k < set.npar; k++)
        gc_suggest_add(&sg, gc_fit_name(&set, k));
      char dym[96];
      if (!d)
        fprintf(stderr, "%s: --%s '%s': unknown parameter%s (model '%s' fits %s)\n", prog, opt,
                name, gc_suggest_text(&sg, dym, sizeof dym), model->name, fit_list);
      else if (!gc_fit_model_reads(model, gc_param_id_of(d)))
        fprintf(stderr, "%s: --%s '%s': model '%s' does not read %s; the parameters it fits: %s%s%s%s\n",
                prog, opt, name, model->name, d->key, fit_list, other_list[0] ? " (it also reads " : "",
                other_list, other_list[0] ? ", which granucal fit cannot calibrate)" : "");
      else
        fprintf(stderr, "%s: --%s '%s': model '%s' reads %s, but granucal fit cannot calibrate it "
                        "(%s); the parameters it fits: %s\n", prog, opt, name, model->name, d->key,
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
    switch (ops[i].kind) {
    case OPT_FIX:
      if (eq) {
        if (!parse_num(eq + 1, &v)) {
          fprintf(stderr, "%s: --fix %s: '%s' is not a finite number\n", prog, name, eq + 1);
          rc = 2;
          break;
        }
        set.trial[j] = v;
      }
      set.is_free[j] = 0;
      break;
    case OPT_FREE:
      if (eq) {
        fprintf(stderr, "%s: --free %s: no value expected (set the initial value with -s)\n", prog,
                arg);
        rc = 2;
        break;
      }
      set.is_free[j] = 1;
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
      set.lo[j] = lo;
      set.hi[j] = hi;
    }
    }
  }
  if (rc) {
    gc_fit_data_free(&data);
    goto done;
  }
  gc_fit_problem pb;
  if (gc_fit_problem_init(&pb, &set, &data, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    gc_fit_data_free(&data);
    rc = 1;
    goto done;
  }
  if (!quiet && (verbose || o.algorithm == GC_FIT_SD))
    o.log = stderr;
  gc_fit_result res;
  memset(&res, 0, sizeof res);
  gc_fit_ident id;
  int have_id = 0, have_verdict = 0;
  gc_fit_verdict *verdict = calloc(1, sizeof *verdict);
  int st = verdict ? gc_fit_run(&pb, &o, &res, msg, sizeof msg) : GC_ENOMEM;
  if (!verdict)
    snprintf(msg, sizeof msg, "out of memory");
  if (!st && pb.n_res > (size_t)pb.nfree) {
    /* What the data determine: profiles of F along each free parameter.  A parameter they do not
     * bound on both sides is held (the card's value when the data allow it) and the others are
     * refitted with it, so that a bound of the search box never becomes a calibrated value. */
    char vmsg[256];
    /* The result is the best point any stage evaluated: when a profile's refit found a lower
     * one, the solver restarts from it and the profiles are run again (three rounds at most). */
    for (int round = 0; !st; round++) {
      have_verdict = gc_fit_verdict_profile(&pb, res.p, res.val.F, verdict, vmsg, sizeof vmsg) ==
                     GC_SUCCESS;
      double qb[GC_FIT_MAXPAR], Fb;
      if (!have_verdict || round == 3)
        break;
      gc_fit_verdict_best(&pb, verdict, qb, &Fb);
      if (!(Fb < res.val.F - 1e-6 * res.val.F - 1e-12 * (pb.set.w_a + pb.set.w_e)))
        break;
      if (!quiet && o.log)
        fprintf(stderr, "\nrestart from the lowest point of the profiles (F = %.7g):\n", Fb);
      gc_fit_options o2 = o;
      o2.starts = 1;
      o2.have_start = 1;
      memcpy(o2.start, qb, sizeof o2.start);
      gc_fit_result res2;
      st = gc_fit_run(&pb, &o2, &res2, msg, sizeof msg);
      if (st)
        break;
      res2.nevals += res.nevals;
      if (res2.val.F < res.val.F) {
        gc_fit_result_free(&res);
        res = res2;
      } else {
        gc_fit_result_free(&res2);
        break;
      }
    }
    if (!have_verdict && !st)
      fprintf(stderr, "%s: warning: no identifiability profile: %s\n", prog, vmsg);
    if (have_verdict && !res.converged) {
      verdict->unconverged = 1;
      snprintf(verdict->why, sizeof verdict->why, "%s", res.stop);
    }
    int nheld = 0;
    gc_fit_setup set2 = pb.set;
    for (int j = 0; have_verdict && hold && !verdict->unconverged && j < pb.set.npar; j++) {
      const gc_fit_profile *pr = &verdict->prof[j];
      if (pr->j < 0 || pr->cls == GC_FIT_DETERMINED)
        continue;
      double t = set.trial[j];
      int inside = t >= pr->lo * (1 - 1e-9) && t <= pr->hi * (1 + 1e-9);
      verdict->held[j] = 1;
      verdict->hold_from_card[j] = inside;
      verdict->hold[j] = inside ? t : t < pr->lo ? pr->lo : pr->hi;
      set2.trial[j] = verdict->hold[j];
      set2.is_free[j] = 0;
      nheld++;
    }
    if (nheld && nheld < pb.nfree) {
      verdict->mode = 1;
      set2.norm_Fa = pb.Fa_ref;
      set2.norm_Fe = pb.Fe_ref;
      gc_fit_problem pb2;
      gc_fit_result res2;
      if (!quiet && o.log)
        fprintf(stderr, "\nrefit with the parameters the data do not determine held:\n");
      st = gc_fit_problem_init(&pb2, &set2, &data, msg, sizeof msg);
      if (!st) {
        st = gc_fit_run(&pb2, &o, &res2, msg, sizeof msg);
        res2.nevals += res.nevals;
        if (st)
          gc_fit_problem_free(&pb2);
      }
      if (!st) {
        gc_fit_result_free(&res);
        gc_fit_problem_free(&pb);
        pb = pb2;
        res = res2;
      }
    } else {
      for (int j = 0; j < GC_FIT_MAXPAR; j++)
        verdict->held[j] = 0;
    }
  }
  if (st) {
    fprintf(stderr, "%s: the fit failed: %s\n", prog, msg);
    rc = 1;
  } else {
    have_id = gc_fit_identify(&pb, res.p, 1e-4, &id, msg, sizeof msg) == GC_SUCCESS;
    if (!have_id)
      fprintf(stderr, "%s: warning: %s\n", prog, msg);
    if (have_id && have_verdict && gc_fit_advise(&pb, res.p, &id, verdict, msg, sizeof msg))
      fprintf(stderr, "%s: warning: %s\n", prog, msg);
    if (have_verdict && gc_fit_verdict_quality(&pb, res.p, verdict))
      fprintf(stderr, "%s: warning: the residuals at the result could not be computed\n", prog);
    if (!quiet) {
      if (o.log)
        fprintf(stderr, "\n");
      if (have_verdict)
        gc_fit_print_verdict(stderr, &pb, res.p, have_id ? &id : NULL, verdict);
      gc_fit_print_summary(stderr, &pb, &o, &res, have_id ? &id : NULL,
                           have_verdict ? verdict : NULL);
    }
    /* provenance: version, command line, date, CRC-32 of the card and every data file */
    char *comment = NULL;
    size_t comment_len = 0;
    FILE *cf = open_memstream(&comment, &comment_len);
    if (cf) {
      const char **inputs = calloc(ncomp + ndropf + npaths + 1, sizeof *inputs);
      size_t ni = 0;
      if (inputs) {
        inputs[ni++] = card;
        for (size_t i = 0; i < ncomp; i++)
          inputs[ni++] = comps[i];
        for (size_t i = 0; i < ndropf; i++)
          inputs[ni++] = dropf[i];
        for (size_t i = 0; i < npaths; i++)
          inputs[ni++] = paths[i];
      }
      gc_provenance_write(cf, "", argc, cmdline, inputs, ni);
      free(inputs);
      fclose(cf);
    }
    if (comment && comment_len && comment[comment_len - 1] == '\n')
      comment[comment_len - 1] = 0;
    gc_outfile of;
    if (report) {
      int warn = 0;
      if (gc_fit_write_report(report, &pb, &o, &res, have_id ? &id : NULL,
                              have_verdict ? verdict : NULL, &x, comment, &warn, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", prog, msg);
        rc = 1;
      } else {
        if (warn)
          fprintf(stderr, "%s: warning: gnuplot failed or is not installed (on Debian: apt-get "
                          "install gnuplot-nox): %s has no PNGs; run 'gnuplot plot-fit.gp' there\n",
                  prog, report);
        if (!quiet)
          fprintf(stderr, "report written to %s/\n", report);
      }
    }
    if (!rc && (out || !report)) {
      if (gc_outfile_open(&of, out, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", prog, msg);
        rc = 1;
      } else if (gc_fit_write_params(of.f, &pb, &res, &x, comment)) {
        fprintf(stderr, "%s: %s: write error\n", prog, out ? out : "standard output");
        gc_outfile_abort(&of);
        rc = 1;
      } else if (gc_outfile_commit(&of, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", prog, msg);
        gc_outfile_abort(&of);
        rc = 1;
      } else if (out && !quiet) {
        fprintf(stderr, "parameters written to %s\n", out);
      }
    }
    free(comment);
  }
  if (have_id)
    gc_fit_ident_free(&id);
  free(verdict);
  gc_fit_result_free(&res);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&data);
done:
  gc_dirlock_release(&report_lock);
  if (rc && report_created)
    rmdir(report); /* only if empty */
  free(sets);
  free(ops);
  free(comps);
  free(dropf);
  free(paths);
  return rc;
#undef USAGE_FAIL
}
