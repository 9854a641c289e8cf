/* walton_braun.c - normal sub-model "wb" of the Walton and Braun [1986] contact model
 * (dissertation sec. 4.2; its tangential part is models/wb_tangential.c):
 *   NFD: bilinear partially-latching spring (eq. 4.3-4.5): P = K1 alpha while loading on the
 *        virgin line, P = K2 (alpha - alpha_0) while unloading and reloading below it, with
 *        K2 = K1 / e^2 (eq. 4.5) and the residual displacement alpha_0 = alpha_max (1 - K1/K2);
 *   TFD: Q_{n+1} = Q_n + K_T dδ (eq. 4.6) with the two-branch stiffness of eq. 4.7, the turning
 *        point Q* reset at reversals only (Remark 4.1: regardless of the change in P), the
 *        friction limit |Q| <= mu P (eq. 4.21 in one dimension) and
 *        K_T0 = K1 2(1-nu)/(2-nu) (eq. 4.8), which the normal step puts in gc_normal.k_t0.
 * The 3-D bookkeeping of sec. 4.2.3 (eq. 4.9-4.21: rotation of Q into the new tangent plane,
 * split of dδ into the components along and across Q) belongs to a DEM code, not to this
 * one-dimensional contact law. */
#include "tfd_core.h"
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

/* eq. 4.5: K2 = K1 / e^2 (e^2 = K1/K2 is the ratio of the areas under the unloading and the
 * loading lines, eq. 4.4). */
static int gc_wb_setup(gc_pair *pair, char *msg, size_t n)
{
  (void)msg;
  (void)n;
  pair->K2 = pair->p.k_n / (pair->p.e_n * pair->p.e_n);
  return GC_SUCCESS;
}

/* eq. 4.8: K_T0 = K1 2(1-nu)/(2-nu), Johnson [1985, p. 220]; K1 kt_ratio when kt_ratio > 0. */
static double gc_wb_k_t0(const gc_params *p)
{
  if (p->kt_ratio > 0)
    return p->k_n * p->kt_ratio;
  return p->k_n * 2.0 * (1.0 - p->nu1) / (2.0 - p->nu1);
}

/* eq. 4.3 with the latch of Fig. 4.3: on the virgin line (alpha >= alpha_max) only K1 works and
 * each new largest displacement is a new turning point; below it the latch is locked and the
 * stiffness is K2, down to P = 0 at alpha_0 (and reloading climbs the same line back). */
static int gc_wb_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                             gc_normal *out)
{
  gc_hist_normal *s = (gc_hist_normal *)h;
  (void)alpha_dot;
  if (!isfinite(alpha))
    return GC_ENAN;
  const gc_params *p = &pair->p;
  double K1 = p->k_n, K2 = pair->K2;
  if (!(K2 >= K1) || !isfinite(K2))
    return GC_EINVAL; /* setup() not run, or e_n out of range */
  double P, kn;
  if (alpha > 0.0 && alpha >= s->alpha_max) {
    P = K1 * alpha;
    kn = K1;
    s->alpha_max = alpha;
    s->P_max = P;
    s->alpha_res = alpha * (1.0 - K1 / K2); /* alpha_0: P_max = K2 (alpha_max - alpha_0) */
  } else {
    double x = alpha - s->alpha_res;
    P = x > 0.0 ? K2 * x : 0.0;
    kn = x > 0.0 ? K2 : 0.0;
  }
  out->P = P;
  out->a_e = out->a_p = out->a = 0.0; /* the bilinear spring has no contact radius */
  out->E_t = 0.0;
  out->k_n = kn;
  out->k_t0 = gc_wb_k_t0(p);
  out->plastic = s->alpha_res > 0.0;
  out->loading = alpha > s->alpha;
  s->loading = out->loading;
  gc_hist_record_normal(s, alpha, P);
  return GC_SUCCESS;
}

const gc_submodel gc_normal_wb = {
  .name = "wb",
  .kind = GC_KIND_NORMAL,
  .description = "Walton-Braun [1986] latching spring K1 / K2 = K1/e^2 (sec. 4.2, eq. 4.3-4.5, "
                 "K_T0 eq. 4.8)",
  .flags = GC_SUB_LINEAR | GC_SUB_HIST_DRIVEN,
  .hist_size = GC_HIST_NORMAL_SIZE,
  .params = { GC_PAR_K_N, GC_PAR_E_N, GC_PAR_NU1, GC_PAR_MU, GC_PAR_KT_RATIO, GC_NPAR },
  .setup = gc_wb_setup,
  .normal = gc_wb_normal_step,
  .contact_time = gc_contact_time_linear,
};
