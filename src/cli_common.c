/* cli_common.c - parameter and model selection shared by the subcommands. */
#include "cli_common.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* room for a message naming two paths */
enum { GC_CLI_PATH_MSG = 4200 };

int gc_cli_load_params(const char *prog, const char *card, char **sets, size_t nsets, gc_params *p,
                       gc_card_extra *x)
{
  char msg[512];
  gc_params_default(p);
  gc_card_extra_default(x);
  if (card && gc_card_read(card, p, x, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  if (x->note[0])
    fprintf(stderr, "%s: note: %s\n", prog, x->note);
  for (size_t i = 0; i < nsets; i++) {
    char *eq = strchr(sets[i], '=');
    if (!eq) {
      fprintf(stderr, "%s: --set '%s': expected KEY=VALUE\n", prog, sets[i]);
      return 2;
    }
    *eq = 0;
    int st = gc_param_set(p, x, sets[i], eq + 1, msg, sizeof msg);
    *eq = '=';
    if (st) {
      /* a malformed --set is a usage error; a value out of its range a bad parameter */
      fprintf(stderr, "%s: --set: %s\n", prog, msg);
      return st == GC_EINVAL ? 1 : 2;
    }
  }
  return 0;
}

double gc_cli_mass(const gc_params *p, const gc_card_extra *x)
{
  if (x->mass > 0)
    return x->mass;
  if (x->rho > 0 && p->R1 > 0)
    return x->rho * 4.0 / 3.0 * M_PI * p->R1 * p->R1 * p->R1;
  return 0.0;
}

double gc_cli_mass2(const gc_params *p, const gc_card_extra *x)
{
  if (!(p->R2 > 0))
    return INFINITY; /* a plane does not move */
  if (x->mass2 > 0)
    return x->mass2;
  if (x->rho > 0)
    return x->rho * 4.0 / 3.0 * M_PI * p->R2 * p->R2 * p->R2;
  return 0.0;
}

double gc_cli_reduced_mass(const gc_params *p, const gc_card_extra *x)
{
  double m1 = gc_cli_mass(p, x), m2 = gc_cli_mass2(p, x);
  if (!(m1 > 0) || !(m2 > 0))
    return 0.0;
  return isinf(m2) ? m1 : m1 * m2 / (m1 + m2);
}

void gc_cli_fill_effective_mass(gc_params *p, const gc_card_extra *x)
{
  if (!(p->m_eff > 0))
    p->m_eff = gc_cli_reduced_mass(p, x);
}

int gc_cli_law(const char *prog, const char *nfd_name, const char *tfd_name, const gc_card_extra *x,
               const gc_params *p, const char *card, gc_law *law)
{
  const gc_preset *nfd, *tfd;
  const char *bad;
  gc_kind bad_kind;
  if (gc_preset_resolve(nfd_name, tfd_name, x->nfd, x->tfd, &nfd, &tfd, &bad, &bad_kind)) {
    fprintf(stderr, "%s: '%s' is not a %s model (see 'granucal models')\n", prog, bad,
            bad_kind == GC_KIND_NORMAL ? "normal" : "tangential");
    return 2;
  }
  const char *names[GC_NKINDS];
  const gc_submodel *rolling = NULL, *twisting = NULL;
  gc_card_law_names(x, names);
  char msg[512];
  if (gc_law_compose(names, &nfd, &tfd, &rolling, &twisting, &bad_kind)) {
    gc_law_key_check(bad_kind, gc_kind_name(bad_kind), names[bad_kind] ? names[bad_kind] : "", msg,
                     sizeof msg);
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  if (gc_law_init_full(law, nfd, tfd, rolling, twisting, p, msg, sizeof msg)) {
    /* a sub-model named by a key: say which key's choice needs the parameter */
    char why[512];
    const char *key = "", *name = "";
    for (int k = 0; k < GC_NKINDS && !key[0]; k++)
      if (names[k] && law->sub[k] && gc_submodel_check(law->sub[k], p, why, sizeof why)) {
        key = gc_kind_name((gc_kind)k);
        name = law->sub[k]->name;
      }
    fprintf(stderr, "%s: %s%s%s%s%s%s%s\n", prog, card ? card : "", card ? ": " : "", key,
            key[0] ? " = " : "", name, key[0] ? " needs " : "", msg);
    return 1;
  }
  return 0;
}

int gc_cli_law_args(int argc, char **argv, const struct option *own, gc_cli_law_argbuf *buf)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0)
      break;
    if (a[0] != '-' || a[1] != '-')
      continue;
    size_t kl = strcspn(a + 2, "=");
    char key[32];
    if (kl >= sizeof key)
      continue;
    memcpy(key, a + 2, kl);
    key[kl] = 0;
    int own_option = 0;
    for (const struct option *o = own; o && o->name; o++)
      own_option |= strcmp(o->name, key) == 0;
    for (char *c = key; *c; c++)
      if (*c == '-')
        *c = '_';
    int kind = gc_law_key_kind(key);
    if (kind < 0 || own_option) /* e.g. impact's own --rolling switch and --rolling-model */
      continue;
    const char *value = a[2 + kl] == '=' ? a + 3 + kl : i + 1 < argc ? argv[i + 1] : NULL;
    if (!value)
      continue; /* the command's own parser reports the missing value */
    /* a name too long for the buffer is cut and then refused as no sub-model's name */
    snprintf(buf->text[kind], sizeof buf->text[kind], "-s%s=%s", key, value);
    if (a[2 + kl] == '=') {
      argv[i] = buf->text[kind];
    } else {
      argv[i] = buf->text[kind];
      /* the value's word becomes an empty --set that the option parser skips: drop it */
      for (int j = i + 1; j + 1 < argc; j++)
        argv[j] = argv[j + 1];
      argv[argc - 1] = NULL;
      argc--;
    }
  }
  return argc;
}

/* The argument getopt_long was reading when it failed: a long option always advances optind
 * past itself; a short option in a group ("-fix": 'f') leaves optind on its group until the
 * group's last letter. */
static const char *failed_arg(int argc, char **argv, int next, int letter)
{
  const char *prev = next > 0 && next <= argc ? argv[next - 1] : "";
  const char *cur = next < argc ? argv[next] : NULL;
  int short_group_prev = prev[0] == '-' && prev[1] && prev[1] != '-';
  if (letter > 0 && letter < 128) {
    if (short_group_prev && prev[strlen(prev) - 1] == letter)
      return prev;
    if (cur && cur[0] == '-' && cur[1] && cur[1] != '-' && strchr(cur + 1, letter))
      return cur;
  }
  return prev;
}

int gc_cli_bad_option(const char *prog, int c, int argc, char **argv, int next,
                      const struct option *opts)
{
  const char *arg = failed_arg(argc, argv, next, optopt);
  if (c == ':') {
    fprintf(stderr, "%s: option '%s' needs a value\n", prog, arg);
    return 2;
  }
  /* the name as typed: "--name=value" and "-name" give name */
  const char *name = arg + (arg[0] == '-') + (arg[0] == '-' && arg[1] == '-');
  size_t nl = strcspn(name, "=");
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)(nl < sizeof word ? nl : sizeof word - 1), name);
  if (arg[0] == '-' && arg[1] == '-' && strchr(arg, '=')) {
    /* a known option that takes no value */
    for (const struct option *o = opts; o && o->name; o++)
      if (strcmp(o->name, word) == 0 && o->has_arg == no_argument) {
        fprintf(stderr, "%s: option '--%s' takes no value ('%s')\n", prog, word, arg);
        return 2;
      }
  }
  if (arg[0] == '-' && arg[1] == '-') {
    /* an abbreviation of two or more options (getopt_long accepts a unique prefix) */
    char list[256] = "";
    int nmatch = 0;
    for (const struct option *o = opts; o && o->name; o++)
      if (*word && strncmp(o->name, word, strlen(word)) == 0) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s'--%s'", nmatch ? ", " : "", o->name);
        nmatch++;
      }
    if (nmatch > 1) {
      fprintf(stderr, "%s: option '%s' is ambiguous: %s\n", prog, arg, list);
      return 2;
    }
  }
  if (arg[0] == '-' && arg[1] && arg[1] != '-' && nl > 1) {
    /* "-fix": a long option written with one dash */
    for (const struct option *o = opts; o && o->name; o++)
      if (strcmp(o->name, word) == 0) {
        fprintf(stderr,
                "%s: unknown option '%s' (a long option takes two dashes: did you mean "
                "'--%s%s'?)\n",
                prog, arg, word, name + nl);
        return 2;
      }
  }
  if (arg[0] == '-' && arg[1] && arg[1] != '-' && optopt > 0 && optopt < 128 && arg[2]) {
    /* a letter in a group of short options ("-qx") */
    fprintf(stderr, "%s: unknown option '-%c' (in '%s'; see --help)\n", prog, optopt, arg);
    return 2;
  }
  gc_suggest sg;
  gc_suggest_init(&sg, word);
  for (const struct option *o = opts; o && o->name; o++)
    gc_suggest_add(&sg, o->name);
  const char *best = arg[0] == '-' && nl > 1 ? gc_suggest_best(&sg) : NULL;
  if (best)
    fprintf(stderr, "%s: unknown option '%s'; did you mean '--%s'? (see --help)\n", prog, arg,
            best);
  else
    fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, arg);
  return 2;
}

int gc_cli_sets_check(const char *prog, char *const *sets, size_t nsets, int argc,
                      char *const *argv, int first_operand)
{
  for (size_t i = 0; i < nsets; i++) {
    if (strchr(sets[i], '='))
      continue;
    /* "-s E 7e10": the value went to the operands */
    const char *value = NULL;
    double v;
    for (int k = first_operand; k < argc && !value; k++)
      if (gc_parse_double(argv[k], &v) == GC_NUM_OK)
        value = argv[k];
    if (value)
      fprintf(stderr, "%s: --set '%s': expected KEY=VALUE: write --set %s=%s\n", prog, sets[i],
              sets[i], value);
    else
      fprintf(stderr, "%s: --set '%s': expected KEY=VALUE\n", prog, sets[i]);
    return 2;
  }
  return 0;
}

/* `granucal models`: the sub-models by kind, the presets and the parameter table, all from
 * the registry (models/registry.c) and the table (models/params.c). */
void gc_models_print(FILE *f)
{
  fprintf(f, "Sub-models by kind (name [history doubles per contact]: description; the "
             "parameters it reads):\n");
  for (int k = 0; k < GC_NKINDS; k++) {
    fprintf(f, "\n%s:\n", gc_kind_name((gc_kind)k));
    for (size_t i = 0; i < gc_submodel_count(); i++) {
      const gc_submodel *m = gc_submodel_at(i);
      if (m->kind != (gc_kind)k)
        continue;
      fprintf(f, "  %-14s [%2zu] %s%s\n", m->name, m->hist_size, m->description,
              (m->flags & GC_SUB_LINEAR) ? " (linear)" : "");
      if (m->params[0] == GC_NPAR)
        continue;
      fprintf(f, "  %-14s      parameters:", "");
      for (size_t j = 0; j < GC_SUB_MAXPAR && m->params[j] != GC_NPAR; j++)
        fprintf(f, " %s", gc_param_def_at(m->params[j])->key);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\nModels (presets; -m / 'model =' takes the normal part, -t / 'tfd =' the "
             "tangential part):\n");
  for (size_t i = 0; i < gc_preset_count(); i++) {
    const gc_preset *ps = gc_preset_at(i);
    fprintf(f, "  %-9s %c%c  normal %s, damping %s, tangential %s\n  %-9s     %s\n", ps->name,
            ps->normal ? 'N' : '-', ps->tangential ? 'T' : '-', ps->normal ? ps->normal : "-",
            ps->normal ? (ps->damping ? ps->damping : "none") : "-",
            ps->tangential ? ps->tangential : "-", "", ps->description);
  }
  fprintf(f, "\nComposing a law: name one sub-model per kind; a kind not named keeps the part "
             "of the model\n(preset, default ep):\n"
             "  card or parameter file   normal = ep   damping = tsuji   tangential = ep\n"
             "                           rolling = spring   twisting = none\n"
             "  chute card               normal =, damping =, tangential =, rolling_model =, "
             "twisting_model =\n"
             "  command line             --normal ep --damping tsuji --tangential ep "
             "--rolling-model spring\n"
             "                           (or -s damping=tsuji); -m ep+tsuji names the same "
             "normal part\n"
             "  LAMMPS plugin            pair_style granucal normal ep damping tsuji ...\n"
             "Any normal sub-model takes any damping; the damping reads its own parameters "
             "(tsuji: e_n,\nm_eff).  See granucal-models(7).\n");
  fprintf(f, "\nParameters (card key [unit]: meaning; allowed range (equation)):\n");
  gc_card_print_keys(f);
}

int gc_cli_double(const char *prog, const char *opt, const char *text, double lo, double hi,
                  int lo_open, int hi_open, const char *unit, double *v)
{
  char rt[96];
  gc_range_text(lo, hi, lo_open, hi_open, 0, unit, rt, sizeof rt);
  double x;
  int st = gc_parse_double(text, &x);
  if (st) {
    fprintf(stderr, "%s: %s '%s' %s; allowed range %s\n", prog, opt, text, gc_number_error(st), rt);
    return 2;
  }
  if ((lo_open ? !(x > lo) : !(x >= lo)) || (hi_open ? !(x < hi) : !(x <= hi))) {
    fprintf(stderr, "%s: %s = %s out of range %s\n", prog, opt, text, rt);
    return 2;
  }
  *v = x;
  return 0;
}

int gc_cli_long(const char *prog, const char *opt, const char *text, long lo, long hi, long *v)
{
  long x;
  int st = gc_parse_long(text, LONG_MIN, LONG_MAX, &x);
  if (st == GC_NUM_OK && (x < lo || x > hi))
    st = GC_NUM_RANGE;
  if (st) {
    char rt[96];
    gc_range_text((double)lo, (double)hi, 0, 0, 1, NULL, rt, sizeof rt);
    fprintf(stderr, "%s: %s '%s' %s; allowed: %s\n", prog, opt, text,
            st == GC_NUM_RANGE ? "is out of range" : gc_number_error(st), rt);
    return 2;
  }
  *v = x;
  return 0;
}

int gc_cli_double_pair(const char *prog, const char *opt, const char *text, double lo, double hi,
                       int lo_open, int hi_open, const char *unit, double *a, double *b)
{
  const char *comma = strchr(text, ',');
  if (!comma) {
    fprintf(stderr, "%s: %s '%s': expected two numbers A,B\n", prog, opt, text);
    return 2;
  }
  char *first = strndup(text, (size_t)(comma - text));
  if (!first)
    return 1;
  int rc = gc_cli_double(prog, opt, first, lo, hi, lo_open, hi_open, unit, a);
  free(first);
  return rc ? rc : gc_cli_double(prog, opt, comma + 1, lo, hi, lo_open, hi_open, unit, b);
}

int gc_cli_outplan_check(const char *prog, const gc_outplan *plan)
{
  char msg[2 * GC_CLI_PATH_MSG];
  if (gc_outplan_check(plan, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  return 0;
}

int gc_cli_outputs_check(const char *prog, const char *const *outs, size_t nouts,
                         const char *const *ins, size_t nins)
{
  char msg[2 * GC_CLI_PATH_MSG];
  if (gc_outputs_check(outs, nouts, ins, nins, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  return 0;
}

int gc_cli_dirlock(const char *prog, gc_dirlock *lock, const char *dir)
{
  char msg[2 * GC_CLI_PATH_MSG];
  if (gc_dirlock_acquire(lock, dir, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
  return 0;
}

char *gc_cli_default_dir(const char *card, const char *suffix)
{
  const char *b = strrchr(card, '/');
  b = b ? b + 1 : card;
  size_t l = strlen(b), ls = strlen(suffix);
  if (l > 6 && strcmp(b + l - 6, ".chute") == 0)
    l -= 6;
  char *d = malloc(l + ls + 1);
  if (d) {
    memcpy(d, b, l);
    memcpy(d + l, suffix, ls + 1);
  }
  return d;
}

void gc_cli_print_notes(const char *prog, const char *notes, int quiet)
{
  for (const char *q = notes; !quiet && q && *q;) {
    const char *e = strchr(q, '\n');
    int l = e ? (int)(e - q) : (int)strlen(q);
    fprintf(stderr, "%s: note: %.*s\n", prog, l, q);
    q += l + (e != NULL);
  }
}

/* ---------------------------------------------------------------- option tables */

enum { GC_CLI_MAXOPT = 64 };

/* Room a SETKEY value may need beyond its argument's own text: "KEY=" for an abbreviated
 * option ("--damp"); the longest key, "twisting_model=", has 15 characters. */
enum { GC_CLI_SETKEY_EXTRA = 16 };

int gc_cli_list_alloc(gc_cli_list *l, int argc, char *const *argv, size_t extra)
{
  size_t n = (size_t)(argc > 0 ? argc : 0) + 1 + extra, text = 0;
  for (int i = 1; i < argc; i++)
    text += strlen(argv[i]) + 1 + GC_CLI_SETKEY_EXTRA;
  char **v = calloc(1, n * sizeof *v + text);
  *l = (gc_cli_list){ v, 0, v ? (char *)(v + n) : NULL, v ? text : 0 };
  return v == NULL;
}

int gc_cli_parse(const char *prog, const gc_cli_opt *opts, int argc, char **argv, void *dest,
                 int *seen, int *first_operand)
{
  struct option lopts[GC_CLI_MAXOPT + 1];
  char shorts[3 * GC_CLI_MAXOPT + 2] = ":";
  size_t nopt = 0, ls = 1;
  for (; opts[nopt].name && nopt < GC_CLI_MAXOPT; nopt++) {
    const gc_cli_opt *o = &opts[nopt];
    int has_arg =
        o->kind == GC_OPT_FLAG || o->kind == GC_OPT_HELP ? no_argument : required_argument;
    /* getopt_long returns the letter, or 256 + the row for a long-only option */
    int val = o->letter ? o->letter : 256 + (int)nopt;
    lopts[nopt] = (struct option){ o->name, has_arg, NULL, val };
    if (o->letter) {
      shorts[ls++] = o->letter;
      if (has_arg == required_argument)
        shorts[ls++] = ':';
    }
  }
  lopts[nopt] = (struct option){ NULL, 0, NULL, 0 };
  shorts[ls] = 0;
  /* an abbreviation of an exact row is an unknown option, named with the row it resembles */
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *a = argv[i];
    size_t l = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0;
    for (size_t k = 0; l && k < nopt; k++)
      if (opts[k].exact && strlen(opts[k].name) > l && strncmp(opts[k].name, a + 2, l) == 0) {
        optopt = 0;
        return gc_cli_bad_option(prog, '?', argc, argv, i + 1, lopts);
      }
  }
  char *base = dest;
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
    size_t k = nopt;
    if (c >= 256)
      k = (size_t)(c - 256);
    else
      for (size_t i = 0; i < nopt; i++)
        if (opts[i].letter && opts[i].letter == c)
          k = i;
    if (k >= nopt) /* ':' (missing value) or '?' (unknown option) */
      return gc_cli_bad_option(prog, c, argc, argv, optind, lopts);
    const gc_cli_opt *o = &opts[k];
    char opt[72];
    snprintf(opt, sizeof opt, "--%s", o->name);
    void *at = base + o->offset;
    int bad = 0;
    if (seen)
      seen[k] = 1;
    switch (o->kind) {
    case GC_OPT_HELP: return GC_CLI_HELP;
    case GC_OPT_FLAG: *(int *)at = 1; break;
    case GC_OPT_STRING:
    case GC_OPT_FILE:
    case GC_OPT_DIR: *(const char **)at = optarg; break;
    case GC_OPT_DOUBLE:
      bad = gc_cli_double(prog, opt, optarg, o->lo, o->hi, o->lo_open, o->hi_open, o->unit,
                          (double *)at);
      break;
    case GC_OPT_LONG:
      bad = gc_cli_long(prog, opt, optarg, (long)o->lo, (long)o->hi, (long *)at);
      break;
    case GC_OPT_LIST: {
      gc_cli_list *l = at;
      l->v[l->n++] = optarg;
      break;
    }
    case GC_OPT_SETKEY: {
      gc_cli_list *l = at;
      size_t need = strlen(o->key) + strlen(optarg) + 2;
      if (!l->text || need > l->text_left)
        return 1; /* not from gc_cli_list_alloc: cannot happen for its argv */
      snprintf(l->text, need, "%s=%s", o->key, optarg);
      l->v[l->n++] = l->text;
      l->text += need;
      l->text_left -= need;
      break;
    }
    }
    if (bad)
      return bad;
  }
  *first_operand = optind;
  return 0;
}

/* "-m, --model NAME" or "    --vin V" */
static int opt_label(char *buf, size_t n, const gc_cli_opt *o)
{
  char shortpart[8] = "    ";
  if (o->letter)
    snprintf(shortpart, sizeof shortpart, "-%c, ", o->letter);
  return snprintf(buf, n, "%s--%s%s%s", shortpart, o->name, o->metavar ? " " : "",
                  o->metavar ? o->metavar : "");
}

void gc_cli_help_options(FILE *f, const gc_cli_opt *opts, int col)
{
  for (const gc_cli_opt *o = opts; o->name; o++) {
    char label[96];
    int l = opt_label(label, sizeof label, o) + 2;
    /* a label reaching the text's column takes two spaces before the text */
    fprintf(f, "  %s%*s", label, l < col ? col - l : 2, "");
    for (const char *q = o->help; *q;) {
      const char *e = strchr(q, '\n');
      int ln = e ? (int)(e - q) : (int)strlen(q);
      fprintf(f, "%.*s\n", ln, q);
      q += ln + (e != NULL);
      if (*q)
        fprintf(f, "%*s", col, "");
    }
  }
}

void gc_cli_complete_options(FILE *f, const gc_cli_opt *opts)
{
  for (const gc_cli_opt *o = opts; o->name; o++)
    fprintf(f, "--%s\n", o->name);
}

/* s with every '-' as troff's \- */
static void man_dashes(FILE *f, const char *s)
{
  for (; *s; s++)
    fputs(*s == '-' ? "\\-" : (char[2]){ *s, 0 }, f);
}

/* The man page's header of an option: ".BR \-q ", " \-\-quiet", ".B \-\-verlet",
 * ".BI \-m " name\fR, " \-\-model= name", ".BI \-s " key" = value "\fR, " \-\-set= key = value",
 * ".BI \-\-vin " v"; a man_arg starting with '"' is the troff text after ".BI \-\-name". */
void gc_cli_man_options(FILE *f, const gc_cli_opt *opts)
{
  for (const gc_cli_opt *o = opts; o->name; o++) {
    const char *a = o->man_arg, *eq = a ? strchr(a, '=') : NULL;
    int kl = eq ? (int)(eq - a) : 0;
    if (!a && o->letter) {
      fprintf(f, ".BR \\-%c \", \" \\-\\-", o->letter);
      man_dashes(f, o->name);
    } else if (!a) {
      fprintf(f, ".B \\-\\-");
      man_dashes(f, o->name);
    } else if (a[0] == '"') {
      fprintf(f, ".BI \\-\\-");
      man_dashes(f, o->name);
      fprintf(f, " %s", a);
    } else if (o->letter && eq) {
      fprintf(f, ".BI \\-%c \" %.*s\" = %s \"\\fR, \" \\-\\-", o->letter, kl, a, eq + 1);
      man_dashes(f, o->name);
      fprintf(f, "= %.*s = %s", kl, a, eq + 1);
    } else if (o->letter) {
      fprintf(f, ".BI \\-%c \" %s\\fR, \" \\-\\-", o->letter, a);
      man_dashes(f, o->name);
      fprintf(f, "= %s", a);
    } else {
      fprintf(f, ".BI \\-\\-");
      man_dashes(f, o->name);
      fprintf(f, " \" %s\"", a);
    }
    fprintf(f, "\n");
  }
}
