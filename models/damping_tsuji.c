/* damping_tsuji.c - damping sub-model "tsuji": viscoelastic damping set from a restitution
 * coefficient, in the form most DEM codes use (Tsuji et al. 1992 as written in EDEM and in
 * LAMMPS granular "damping tsuji"-like models), on top of a Hertz normal spring:
 *   P = (4/3) E* sqrt(R*) alpha^(3/2) + 2 sqrt(5/6) (-beta) sqrt(S_n m*) alpha_dot,
 *   S_n = 2 E* sqrt(R* alpha),  beta = ln e / sqrt(ln^2 e + pi^2),
 * clipped at P = 0 (no tension at the end of the contact).  The e -> beta mapping is the
 * linear-spring one; issue 9 part 2 replaces it by the exact Hertz inversion.  Provided for
 * comparison with other DEM codes, not from the dissertation. */
#include "gc_internal.h"

#include <math.h>

int gc_tsuji_setup(gc_pair *pair, char *msg, size_t n)
{
  (void)msg;
  (void)n;
  double le = log(pair->p.e_n);
  pair->beta_damp = le / sqrt(le * le + M_PI * M_PI); /* <= 0 */
  return GC_SUCCESS;
}

double gc_tsuji_coefficient(const gc_pair *pair, double stiffness)
{
  return 2.0 * sqrt(5.0 / 6.0) * (-pair->beta_damp) * sqrt(stiffness * pair->p.m_eff);
}

static int tsuji_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                         double alpha_dot, gc_normal *out)
{
  (void)h;
  if (!isfinite(alpha_dot))
    return GC_ENAN;
  if (alpha > 0) {
    double S_n = 2.0 * pair->E_star * out->a; /* dP/dalpha of the Hertz spring */
    double P = out->P + gc_tsuji_coefficient(pair, S_n) * alpha_dot;
    out->P = P > 0 ? P : 0.0;
    gc_hist_record_normal(hn, alpha, out->P);
  }
  return GC_SUCCESS;
}

const gc_submodel gc_damping_tsuji = {
  .name = "tsuji",
  .kind = GC_KIND_DAMPING,
  .description = "viscous damping from e_n, Tsuji et al. (1992) form, no tension",
  .hist_size = 0,
  .params = { GC_PAR_E_N, GC_PAR_M_EFF, GC_NPAR },
  .setup = gc_tsuji_setup,
  .damping = tsuji_damping,
};
