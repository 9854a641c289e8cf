/* params.c - THE table of contact parameters: every field of gc_params, described once (card
 * key, unit, allowed range, equation, help).  The card reader (src/gc_io.c), the range checks
 * of every sub-model (gc_law_init), --help, `granucal models` and the fit read it.  Which
 * sub-models read a parameter is stated by the sub-models' rows (gc_submodel.params), so that
 * adding a sub-model touches one place. */
#include "gc_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define INF INFINITY
#define D(field) offsetof(gc_params, field), 0
#define I(field) offsetof(gc_params, field), 1

static const gc_param_def table[GC_NPAR] = {
  [GC_PAR_R1] = { "R1", "R", D(R1), "m", 0, INF, 1, 1, NULL, "eq. 3.2",
                  "radius of sphere 1 (curvature radius at the contact)" },
  [GC_PAR_R2] = { "R2", "R2", D(R2), "m", 0, INF, 0, 1, "0: a plane", "eq. 3.2",
                  "radius of body 2" },
  [GC_PAR_E1] = { "E1", "E", D(E1), "Pa", 0, INF, 0, 1,
                  "0: not given, for the linear models and a rigid chute wall", "eq. 3.1",
                  "Young's modulus of body 1" },
  [GC_PAR_E2] = { "E2", "E2", D(E2), "Pa", 0, INF, 0, 1, "0: rigid", "eq. 3.1",
                  "Young's modulus of body 2" },
  [GC_PAR_NU1] = { "nu1", "nu", D(nu1), "-", -1, 0.5, 1, 1, NULL, "eq. 3.1",
                   "Poisson's ratio of body 1" },
  [GC_PAR_NU2] = { "nu2", "nu2", D(nu2), "-", -1, 0.5, 1, 1, NULL, "eq. 3.1",
                   "Poisson's ratio of body 2" },
  [GC_PAR_SY1] = { "sY1", "sY", D(sY1), "Pa", 0, INF, 0, 1, "0: give P_Y", "eq. 3.20, 6.19",
                   "uniaxial yield stress of body 1" },
  [GC_PAR_SY2] = { "sY2", "sY2", D(sY2), "Pa", 0, INF, 0, 1, "0: body 2 does not yield",
                   "eq. 6.20-6.21", "uniaxial yield stress of body 2" },
  [GC_PAR_P_Y] = { "P_Y", "P_Y", D(P_Y), "N", 0, INF, 0, 1, "0: derived from sY", "eq. 6.19-6.21",
                   "incipient yield force; overrides sY when > 0" },
  [GC_PAR_C_A] = { "C_a", "C_a", D(C_a), "m/N", 0, INF, 0, 1, NULL, "eq. 6.3",
                   "plastic contact-radius coefficient" },
  /* K_c <= 10 1/N: C_R = 1 + K_c (P - P_Y) is the flattened curvature radius over R (eq. 6.13);
   * the FEA gives 2.69e-4 (aluminium, C_R = 1.4 at 1500 N) and 2.95e-6 1/N (soybean), the fit's
   * recovery test uses 0.2 (C_R up to 1.3).  Beyond ~1-10 1/N the loading curve of a soybean is
   * stiffer than Hertz by orders of magnitude (its drop at 3 m/s ends within one step of
   * 1e-6 s with e > 1, refused); K_c = 1e30 gives NaN. */
  [GC_PAR_K_C] = { "K_c", "K_c", D(K_c), "1/N", 0, 10, 0, 0, NULL, "eq. 6.13",
                   "curvature-correction coefficient" },
  [GC_PAR_MU] = { "mu", "mu", D(mu), "-", 0, INF, 0, 1, NULL, "eq. 3.24, 4.21",
                  "Coulomb friction coefficient" },
  [GC_PAR_K_N] = { "k_n", "k_n", D(k_n), "N/m", 0, INF, 1, 1, NULL, "eq. 4.1, 4.3",
                   "linear normal stiffness (lsd K_N; Walton-Braun K1)" },
  [GC_PAR_C_N] = { "c_n", "c_n", D(c_n), "N s/m", 0, INF, 0, 1, NULL, "eq. 4.1",
                   "linear normal damping (lsd)" },
  [GC_PAR_K_T] = { "k_t", "k_t", D(k_t), "N/m", 0, INF, 0, 1, NULL, "eq. 4.2",
                   "linear tangential stiffness (lsd)" },
  [GC_PAR_C_T] = { "c_t", "c_t", D(c_t), "N s/m", 0, INF, 0, 1, NULL, "eq. 4.2",
                   "linear tangential damping (lsd)" },
  [GC_PAR_E_N] = { "e_n", "e_n", D(e_n), "-", 0, 1, 1, 0, NULL, "eq. 4.5; Tsuji et al. 1992",
                   "normal restitution coefficient (wb K2; tsuji, linear_e damping: exact)" },
  [GC_PAR_M_EFF] = { "m_eff", "m_eff", D(m_eff), "kg", 0, INF, 1, 1, NULL, "Tsuji et al. 1992",
                     "effective mass of the pair (tsuji, linear_e damping)" },
  [GC_PAR_KT_RATIO] = { "kt_ratio", "kt_ratio", D(kt_ratio), "-", 0, INF, 0, 1,
                        "0: derived from nu", "eq. 3.25, 4.8, 8.5, C.32-C.33",
                        "K_T0 / (2 E* a) (K_T0 / K1 for wb); 0: 2(1-nu)/(2-nu); 2/7: special "
                        "material" },
  [GC_PAR_RELOAD] = { "reload", "reload", I(reload), "-", 0, 1, 0, 0, "0 (continuous), 1 (literal)",
                      "eq. 6.16-6.18, granucal-models(7)",
                      "EP reloading rule: continuous (default) | literal" },
  [GC_PAR_ALPHA_C] = { "alpha_c", "alpha_c", D(alpha_c), "s/m", 0, INF, 0, 1, NULL,
                       "Hunt & Crossley 1975; seed 000 eq. 3",
                       "Hunt-Crossley damping P = P_el (1 + 3/2 alpha_c alpha_dot); "
                       "e ~ 1 - alpha_c v" },
  [GC_PAR_TENSION] = { "tension", "tension", I(tension), "-", 0, 1, 0, 0,
                       "0 (clipped, default), 1 (allowed)", "Chung & Ooi 2011",
                       "damping: 0 the normal force is clipped at 0; 1 the dashpot may pull" },
  [GC_PAR_TFD_TRANSITIONS] = { "tfd_transitions", "tfd_transitions", I(tfd_transitions), "-", 0, 1,
                               0, 0, NULL, "ch. 5, eq. 3.26-3.64",
                               "1 (default) | 0: VQZ varying-P transitions on/off" },
  [GC_PAR_MU_R] = { "mu_r", "mu_r", D(mu_r), "-", 0, INF, 0, 1, NULL,
                    "seed 004 (eta); Ai et al. 2011",
                    "rolling resistance coefficient: |M_r| <= mu_r R* P (rolling spring, const)" },
  [GC_PAR_BETA_R] = { "beta_r", "beta_r", D(beta_r), "-", 0, INF, 1, 1, NULL, "seed 004 (beta)",
                      "rolling stiffness coefficient: K_r = beta_r R*^2 K_T0 (rolling spring)" },
  [GC_PAR_W_REG] = { "w_reg", "w_reg", D(w_reg), "rad/s", 0, INF, 1, 1, NULL,
                     "regularisation of M = -M_max w/|w|",
                     "constant-torque rolling / twisting: linear in w below w_reg" },
};

const gc_param_def *gc_param_def_at(gc_param_id id)
{
  return (unsigned)id < GC_NPAR ? &table[id] : NULL;
}

const gc_param_def *gc_param_lookup(const char *s)
{
  if (!s)
    return NULL;
  for (size_t i = 0; i < GC_NPAR; i++)
    if (strcmp(table[i].key, s) == 0 || strcmp(table[i].name, s) == 0)
      return &table[i];
  return NULL;
}

gc_param_id gc_param_id_of(const gc_param_def *d)
{
  return (gc_param_id)(d - table);
}

double gc_param_get(const gc_params *p, gc_param_id id)
{
  const gc_param_def *d = &table[id];
  const char *b = (const char *)p + d->offset;
  if (d->is_int) {
    int v;
    memcpy(&v, b, sizeof v);
    return v;
  }
  double v;
  memcpy(&v, b, sizeof v);
  return v;
}

void gc_param_put(gc_params *p, gc_param_id id, double v)
{
  const gc_param_def *d = &table[id];
  char *b = (char *)p + d->offset;
  if (d->is_int) {
    int iv = (int)v;
    memcpy(b, &iv, sizeof iv);
  } else {
    memcpy(b, &v, sizeof v);
  }
}

/* an end of a range: inf, an integer's every digit, else 6 significant digits */
static void num(char *buf, size_t n, double v, int integer)
{
  if (isinf(v))
    snprintf(buf, n, "%sinf", v < 0 ? "-" : "");
  else if (integer && fabs(v) < 1e15)
    snprintf(buf, n, "%.0f", v);
  else
    snprintf(buf, n, "%.6g", v);
}

void gc_range_text(double lo, double hi, int lo_open, int hi_open, int integer, const char *unit,
                   char *buf, size_t n)
{
  char l[32], h[32];
  num(l, sizeof l, lo, integer);
  num(h, sizeof h, hi, integer);
  int has_unit = unit && *unit && strcmp(unit, "-") != 0;
  if (integer && hi - lo == 1)
    snprintf(buf, n, "{%s, %s}%s%s", l, h, has_unit ? " " : "", has_unit ? unit : "");
  else
    snprintf(buf, n, "%s%c%s, %s%c%s%s", integer ? "an integer in " : "",
             lo_open && !integer ? '(' : '[', l, h, hi_open && !integer ? ')' : ']',
             has_unit ? " " : "", has_unit ? unit : "");
}

void gc_param_range_text(gc_param_id id, char *buf, size_t n)
{
  const gc_param_def *d = &table[id];
  gc_range_text(d->lo, d->hi, d->lo_open, d->hi_open, d->is_int, d->unit, buf, n);
}

int gc_param_in_range(gc_param_id id, double v)
{
  const gc_param_def *d = &table[id];
  if (!isfinite(v))
    return 0;
  if (d->is_int && v != floor(v))
    return 0;
  if (d->lo_open ? !(v > d->lo) : !(v >= d->lo))
    return 0;
  if (d->hi_open ? !(v < d->hi) : !(v <= d->hi))
    return 0;
  return 1;
}

int gc_param_check(const gc_params *p, gc_param_id id, char *msg, size_t n)
{
  if ((unsigned)id >= GC_NPAR)
    return GC_EINVAL;
  double v = gc_param_get(p, id);
  if (gc_param_in_range(id, v))
    return GC_SUCCESS;
  if (msg && n) {
    const gc_param_def *d = &table[id];
    char r[64];
    gc_param_range_text(id, r, sizeof r);
    snprintf(msg, n, "%s = %g out of range %s%s%s%s", d->key, v, r, d->range_note ? " (" : "",
             d->range_note ? d->range_note : "", d->range_note ? ")" : "");
  }
  return GC_EINVAL;
}
