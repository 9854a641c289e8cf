/* cli_common.c - parameter and model selection shared by the subcommands. */
#include "cli_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gc_cli_load_params(const char *prog, const char *card, char **sets, size_t nsets,
                       gc_params *p, gc_card_extra *x)
{
  char msg[512];
  gc_params_default(p);
  gc_card_extra_default(x);
  if (card && gc_card_read(card, p, x, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
  }
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

int gc_cli_law(const char *prog, const char *nfd_name, const char *tfd_name,
               const gc_card_extra *x, const gc_params *p, const char *card, gc_law *law)
{
  if (!nfd_name)
    nfd_name = x->nfd[0] ? x->nfd : "ep";
  if (!tfd_name && x->tfd[0])
    tfd_name = x->tfd;
  const gc_preset *nfd = gc_preset_lookup(nfd_name);
  if (!nfd || !nfd->normal) {
    fprintf(stderr, "%s: '%s' is not a normal model (see 'granucal models')\n", prog, nfd_name);
    return 2;
  }
  const gc_preset *tfd = NULL;
  if (tfd_name && strcmp(tfd_name, "none") != 0) {
    tfd = gc_preset_lookup(tfd_name);
    if (!tfd || !tfd->tangential) {
      fprintf(stderr, "%s: '%s' is not a tangential model (see 'granucal models')\n", prog,
              tfd_name);
      return 2;
    }
  } else if (!tfd_name && nfd->tangential) {
    tfd = nfd;
  }
  char msg[512];
  if (gc_law_init_preset(law, nfd, tfd, p, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s%s%s\n", prog, card ? card : "", card ? ": " : "", msg);
    return 1;
  }
  return 0;
}

int gc_cli_bad_option(const char *prog, int c, char **argv, int next)
{
  if (c == ':')
    fprintf(stderr, "%s: option '%s' needs a value\n", prog, argv[next - 1]);
  else
    fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, argv[next - 1]);
  return 2;
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
  fprintf(f, "\nParameters (card key [unit]: meaning; allowed range (equation)):\n");
  gc_card_print_keys(f);
}
