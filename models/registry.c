/* registry.c - every sub-model (one row each) and the presets, i.e. the historical model names
 * as compositions of sub-models.  Adding a sub-model: its file, one row here, one line in
 * models/Makefile.am. */
#include "gc_model.h"

#include <string.h>

static const gc_submodel *const rows[] = {
  /* normal */
  &gc_normal_hertz, &gc_normal_lsd, &gc_normal_wb, &gc_normal_thornton, &gc_normal_ep,
  /* damping */
  &gc_damping_none, &gc_damping_linear, &gc_damping_tsuji, &gc_damping_linear_e,
  &gc_damping_hunt_crossley,
  /* tangential */
  &gc_tangential_none, &gc_tangential_lsd, &gc_tangential_tsuji, &gc_tangential_wb,
  &gc_tangential_md, &gc_tangential_vqz, &gc_tangential_ep, &gc_tangential_mindlin,
  &gc_tangential_brendel_dippel,
  /* rolling, twisting */
  &gc_rolling_none, &gc_rolling_spring, &gc_rolling_const,
  &gc_twisting_none, &gc_twisting_spring, &gc_twisting_const,
};

size_t gc_submodel_count(void) { return sizeof rows / sizeof rows[0]; }

const gc_submodel *gc_submodel_at(size_t i) { return i < gc_submodel_count() ? rows[i] : NULL; }

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
  { "tsuji", "Hertz-Mindlin (no slip) with restitution-based viscous damping (Tsuji form)",
    "hertz", "tsuji", "tsuji" },
  { "wb", "Walton-Braun [1986] latching spring and turning-point TFD (sec. 4.2)", "wb", NULL,
    "wb" },
  { "thornton", "Thornton [1997] elastic-perfectly-plastic normal contact (sec. 4.3)",
    "thornton", NULL, NULL },
  { "md", "Mindlin-Deresiewicz [1953] TFD for constant P (sec. 3.2.1)", NULL, NULL, "md" },
  { "vqz", "Vu-Quoc-Zhang improved TFD for varying P, rolling correction (ch. 5)", NULL, NULL,
    "vqz" },
  { "ep", "Vu-Quoc-Zhang elasto-plastic NFD (ch. 6) and TFD (ch. 8)", "ep", NULL, "ep" },
  { "lsd_e", "linear spring-dashpot, C_N from e_n exactly (eq. 4.1-4.2)", "lsd", "linear_e",
    "lsd" },
  { "hc", "Hertz with Hunt-Crossley damping (seed 000 eq. 3), no-slip Mindlin spring",
    "hertz", "hunt_crossley", "mindlin" },
  { "mindlin", "Mindlin no-slip spring 8 G* a with Coulomb cap (as LAMMPS/Yade)", NULL, NULL,
    "mindlin" },
  { "bd", "Brendel-Dippel regularised Coulomb friction (seed 000 eq. 5-6)", NULL, NULL,
    "brendel_dippel" },
};

size_t gc_preset_count(void) { return sizeof presets / sizeof presets[0]; }

const gc_preset *gc_preset_at(size_t i) { return i < gc_preset_count() ? &presets[i] : NULL; }

const gc_preset *gc_preset_lookup(const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < gc_preset_count(); i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  return NULL;
}

int gc_preset_resolve(const char *normal, const char *tangential, const char *file_normal,
                      const char *file_tangential, const gc_preset **nfd, const gc_preset **tfd,
                      const char **bad, gc_kind *bad_kind)
{
  const char *nn = normal ? normal : file_normal && file_normal[0] ? file_normal : "ep";
  const char *tn = tangential ? tangential
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
