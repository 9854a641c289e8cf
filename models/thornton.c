/* thornton.c - normal sub-model "thornton": Thornton [1997] elastic-perfectly-plastic normal
 * contact (sec. 4.3).
 * Hertz up to alpha_Y; then a linear P(alpha) at the contact yield pressure p_y = A_Y(nu) sY
 * (Thornton used 1.61 sY, A_Y(0.3) ~= 1.61); unloading on a Hertz curve with an enlarged
 * curvature radius R*_p and a residual displacement alpha_p. */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

static int thornton_check(const gc_params *p, char *msg, size_t n)
{
  int st = gc_check_elastic(p, msg, n);
  if (st)
    return st;
  return gc_check_yield_given(p, msg, n);
}

typedef struct {
  GC_HIST_NORMAL_FIELDS;
  double R_p; /* current unloading curvature radius [m] (Thornton R*_p) */
} thornton_hist;

static int thornton_setup(gc_pair *pair, char *msg, size_t n)
{
  return gc_yield_setup(pair, msg, n);
}

/* Unloading curve through (alpha_max, P_max) (Thornton 1997):
 *   R*_p = (4 E* / (3 P_max)) ((2 P_max + P_Y) / (2 pi p_y))^(3/2),
 *   alpha_p = alpha_max - (3 P_max / (4 E* sqrt(R*_p)))^(2/3). */
static void thornton_unloading_curve(const gc_pair *pair, thornton_hist *s)
{
  if (s->P_max > pair->P_Y) {
    double Rp = 4.0 * pair->E_star / (3.0 * s->P_max) *
                pow((2.0 * s->P_max + pair->P_Y) / (2.0 * M_PI * pair->p_y), 1.5);
    s->R_p = Rp;
    s->alpha_res = s->alpha_max - pow(3.0 * s->P_max / (4.0 * pair->E_star * sqrt(Rp)), 2.0 / 3.0);
  } else {
    s->R_p = pair->R_star; /* never yielded: Hertz both ways */
    s->alpha_res = 0.0;
  }
}

static int thornton_normal_step(const gc_pair *pair, double *h, double alpha, double alpha_dot,
                                gc_normal *out)
{
  thornton_hist *s = (thornton_hist *)h;
  (void)alpha_dot;
  if (!isfinite(alpha))
    return GC_ENAN;
  double a, P, k_n;
  /* Time-independent plasticity: the force depends only on alpha and on the largest
   * displacement reached so far. Beyond it the contact follows the virgin curve. */
  if (alpha > s->alpha_max) {
    if (alpha <= pair->alpha_Y) {
      gc_hertz_fill(pair, alpha, out);
      P = out->P;
      a = out->a;
      k_n = out->k_n;
    } else {
      P = pair->P_Y + M_PI * pair->p_y * pair->R_star * (alpha - pair->alpha_Y);
      a = sqrt(pair->R_star * alpha);
      k_n = M_PI * pair->p_y * pair->R_star;
    }
    s->alpha_max = alpha;
    s->P_max = P;
    thornton_unloading_curve(pair, s);
    out->loading = 1;
  } else {
    double x = alpha - s->alpha_res;
    if (x > 0) {
      a = sqrt(s->R_p * x);
      P = 4.0 / 3.0 * pair->E_star * sqrt(s->R_p) * x * sqrt(x);
      k_n = 2.0 * pair->E_star * a;
    } else {
      a = P = k_n = 0.0;
    }
    out->loading = alpha > s->alpha;
  }
  out->P = P;
  out->a = out->a_e = a;
  out->a_p = 0.0;
  out->E_t = pair->E_star;
  out->k_n = k_n;
  out->k_t0 = gc_k_t0(pair, a, pair->E_star);
  out->plastic = s->P_max > pair->P_Y;
  s->in_contact = alpha > 0;
  s->alpha = alpha;
  s->P = P;
  return GC_SUCCESS;
}

const gc_submodel gc_normal_thornton = {
  .name = "thornton",
  .kind = GC_KIND_NORMAL,
  .flags = GC_SUB_HIST_DRIVEN,
  .description = "Thornton [1997] elastic-perfectly-plastic normal contact (sec. 4.3)",
  .hist_size = sizeof(thornton_hist) / sizeof(double),
  .params = { GC_PARAMS_ELASTIC, GC_PAR_SY1, GC_PAR_SY2, GC_PAR_P_Y, GC_NPAR },
  .check = thornton_check,
  .setup = thornton_setup,
  .normal = thornton_normal_step,
  .contact_time = gc_contact_time_hertz,
};
