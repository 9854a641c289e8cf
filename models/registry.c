/* registry.c - every sub-model (one row each), the compositions of a normal with a damping
 * sub-model, and the presets, i.e. the historical model names as compositions of sub-models.
 * The rows are generated at build time (registry_rows.h, by registry_rows.awk) from the
 * definitions "const gc_submodel gc_KIND_NAME = {" in the files of models/Makefile.am's source
 * list: adding a sub-model is its file plus its line in that list. */
#include "gc_model.h"

#include <stdio.h>
#include <string.h>

#include "registry_rows.h"

static const gc_submodel *const rows[] = { GC_REGISTRY_ROWS };

/* Every normal sub-model with every damping sub-model, "NORMAL+DAMPING" (e.g. "ep+tsuji"), as a
 * preset without a tangential part: the normal part of a law whose sub-models were named one
 * by one.  Static and constant, so that a law chosen by keys is carried exactly as a preset. */
#define GC_COMPOSED_ND(normal, damping)                                                            \
  { #normal "+" #damping, "normal " #normal " with damping " #damping, #normal, #damping, NULL },
#define GC_COMPOSED_N(unused, normal) GC_DAMPING_NAMES(GC_COMPOSED_ND, normal)
static const gc_preset composed_normal[] = { GC_NORMAL_NAMES(GC_COMPOSED_N, ~) };

/* Every tangential sub-model as a preset with only that part (the row of "none" stands for
 * frictionless and is never a law's tangential preset). */
#define GC_COMPOSED_T(unused, tangential)                                                          \
  { #tangential, "tangential " #tangential, NULL, NULL, #tangential },
static const gc_preset composed_tangential[] = { GC_TANGENTIAL_NAMES(GC_COMPOSED_T, ~) };

size_t gc_submodel_count(void)
{
  return sizeof rows / sizeof rows[0];
}

const gc_submodel *gc_submodel_at(size_t i)
{
  return i < gc_submodel_count() ? rows[i] : NULL;
}

const gc_submodel *gc_submodel_lookup(gc_kind kind, const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < gc_submodel_count(); i++)
    if (rows[i]->kind == kind && strcmp(rows[i]->name, name) == 0)
      return rows[i];
  return NULL;
}

const gc_submodel *gc_submodel_none(gc_kind kind)
{
  return kind == GC_KIND_NORMAL ? NULL : gc_submodel_lookup(kind, "none");
}

int gc_submodel_reads(const gc_submodel *m, gc_param_id id)
{
  for (size_t i = 0; i < GC_SUB_MAXPAR && m->params[i] != GC_NPAR; i++)
    if (m->params[i] == id)
      return 1;
  return 0;
}

const char *gc_kind_name(gc_kind k)
{
  static const char *const names[GC_NKINDS] = { "normal", "damping", "tangential", "rolling",
                                                "twisting" };
  return (unsigned)k < GC_NKINDS ? names[k] : "?";
}

static const gc_preset presets[] = {
  { "hertz", "Hertz elastic normal contact (sec. 3.1)", "hertz", NULL, NULL },
  { "lsd", "linear spring-dashpot with Coulomb limit (sec. 4.1, eq. 4.1-4.2)", "lsd", "linear",
    "lsd" },
  { "tsuji", "Hertz-Mindlin (no slip) with restitution-based viscous damping (Tsuji form)", "hertz",
    "tsuji", "tsuji" },
  { "wb", "Walton-Braun [1986] latching spring and turning-point TFD (sec. 4.2)", "wb", NULL,
    "wb" },
  { "thornton", "Thornton [1997] elastic-perfectly-plastic normal contact (sec. 4.3)", "thornton",
    NULL, NULL },
  { "md", "Mindlin-Deresiewicz [1953] TFD for constant P (sec. 3.2.1)", NULL, NULL, "md" },
  { "vqz", "Vu-Quoc-Zhang improved TFD for varying P, rolling correction (ch. 5)", NULL, NULL,
    "vqz" },
  { "ep", "Vu-Quoc-Zhang elasto-plastic NFD (ch. 6) and TFD (ch. 8)", "ep", NULL, "ep" },
  { "lsd_e", "linear spring-dashpot, C_N from e_n exactly (eq. 4.1-4.2)", "lsd", "linear_e",
    "lsd" },
  { "hc", "Hertz with Hunt-Crossley damping (seed 000 eq. 3), no-slip Mindlin spring", "hertz",
    "hunt_crossley", "mindlin" },
  { "mindlin", "Mindlin no-slip spring 8 G* a with Coulomb cap (as LAMMPS/Yade)", NULL, NULL,
    "mindlin" },
  { "bd", "Brendel-Dippel regularised Coulomb friction (seed 000 eq. 5-6)", NULL, NULL,
    "brendel_dippel" },
};

size_t gc_preset_count(void)
{
  return sizeof presets / sizeof presets[0];
}

const gc_preset *gc_preset_at(size_t i)
{
  return i < gc_preset_count() ? &presets[i] : NULL;
}

const gc_preset *gc_preset_lookup(const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < gc_preset_count(); i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  /* a composition by its name, "NORMAL+DAMPING" (as a fitted parameter file names it) */
  for (size_t i = 0; i < sizeof composed_normal / sizeof composed_normal[0]; i++)
    if (strcmp(composed_normal[i].name, name) == 0)
      return &composed_normal[i];
  return NULL;
}

int gc_preset_resolve(const char *normal, const char *tangential, const char *file_normal,
                      const char *file_tangential, const gc_preset **nfd, const gc_preset **tfd,
                      const char **bad, gc_kind *bad_kind)
{
  const char *nn = normal ? normal : file_normal && file_normal[0] ? file_normal : "ep";
  const char *tn = tangential                              ? tangential
                   : file_tangential && file_tangential[0] ? file_tangential
                                                           : NULL;
  *nfd = gc_preset_lookup(nn);
  *tfd = NULL;
  if (!*nfd || !(*nfd)->normal) {
    *bad = nn;
    *bad_kind = GC_KIND_NORMAL;
    *nfd = NULL;
    return GC_EINVAL;
  }
  if (tn && strcmp(tn, "none") != 0) {
    *tfd = gc_preset_lookup(tn);
    if (!*tfd || !(*tfd)->tangential) {
      *bad = tn;
      *bad_kind = GC_KIND_TANGENTIAL;
      *tfd = NULL;
      return GC_EINVAL;
    }
  } else if (!tn && (*nfd)->tangential) {
    *tfd = *nfd;
  }
  return GC_SUCCESS;
}

const gc_submodel *gc_preset_part(const gc_preset *ps, gc_kind k)
{
  if (!ps)
    return NULL;
  switch (k) {
  case GC_KIND_NORMAL: return ps->normal ? gc_submodel_lookup(k, ps->normal) : NULL;
  case GC_KIND_DAMPING:
    return ps->normal ? gc_submodel_lookup(k, ps->damping ? ps->damping : "none") : NULL;
  case GC_KIND_TANGENTIAL: return ps->tangential ? gc_submodel_lookup(k, ps->tangential) : NULL;
  default: return NULL;
  }
}

const gc_preset *gc_preset_compose(const char *normal, const char *damping)
{
  if (!normal || !damping)
    return NULL;
  for (size_t i = 0; i < sizeof composed_normal / sizeof composed_normal[0]; i++)
    if (strcmp(composed_normal[i].normal, normal) == 0 &&
        strcmp(composed_normal[i].damping, damping) == 0)
      return &composed_normal[i];
  return NULL;
}

const gc_preset *gc_preset_of_tangential(const char *tangential)
{
  if (!tangential)
    return NULL;
  for (size_t i = 0; i < sizeof composed_tangential / sizeof composed_tangential[0]; i++)
    if (strcmp(composed_tangential[i].tangential, tangential) == 0)
      return &composed_tangential[i];
  return NULL;
}

int gc_law_compose(const char *const sub[GC_NKINDS], const gc_preset **nfd, const gc_preset **tfd,
                   const gc_submodel **rolling, const gc_submodel **twisting, gc_kind *bad_kind)
{
  for (int k = 0; k < GC_NKINDS; k++)
    if (sub[k] && !gc_submodel_lookup((gc_kind)k, sub[k])) {
      *bad_kind = (gc_kind)k;
      return GC_EINVAL;
    }
  const char *nn = sub[GC_KIND_NORMAL], *dn = sub[GC_KIND_DAMPING];
  if (nn || dn) {
    const gc_preset *base = *nfd;
    const char *base_n = base ? base->normal : NULL;
    const char *base_d = base && base->damping ? base->damping : "none";
    const char *n = nn ? nn : base_n, *d = dn ? dn : base_d;
    if (!n) {
      *bad_kind = GC_KIND_NORMAL;
      return GC_EINVAL;
    }
    /* the preset itself when the keys repeat its parts: its name stays the law's name */
    if (!base || strcmp(n, base_n) != 0 || strcmp(d, base_d) != 0)
      *nfd = gc_preset_compose(n, d);
  }
  const char *tn = sub[GC_KIND_TANGENTIAL];
  if (tn && strcmp(tn, "none") == 0)
    *tfd = NULL;
  else if (tn && !(*tfd && strcmp((*tfd)->tangential, tn) == 0))
    *tfd = gc_preset_of_tangential(tn);
  if (sub[GC_KIND_ROLLING])
    *rolling = gc_submodel_lookup(GC_KIND_ROLLING, sub[GC_KIND_ROLLING]);
  if (sub[GC_KIND_TWISTING])
    *twisting = gc_submodel_lookup(GC_KIND_TWISTING, sub[GC_KIND_TWISTING]);
  return GC_SUCCESS;
}

size_t gc_submodel_names(gc_kind kind, char *buf, size_t n)
{
  size_t len = 0;
  if (n)
    buf[0] = 0;
  for (size_t i = 0; i < gc_submodel_count(); i++) {
    if (rows[i]->kind != kind)
      continue;
    int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s", len ? ", " : "",
                     rows[i]->name);
    len += w > 0 ? (size_t)w : 0;
  }
  return len;
}
