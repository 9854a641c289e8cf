/* damping_tsuji.c - damping sub-model "tsuji": viscoelastic damping set from a restitution
 * coefficient, in the form most DEM codes use (Tsuji et al. 1992; EDEM, LAMMPS, Yade's
 * Hertz-Mindlin), on top of a Hertz normal spring:
 *   P = (4/3) E* sqrt(R*) alpha^(3/2) + 2 sqrt(5/6) (-beta) sqrt(S_n m*) alpha_dot,
 *   S_n = 2 E* sqrt(R* alpha),
 * i.e. P = k alpha^(3/2) + eta sqrt(m* k) alpha^(1/4) alpha_dot with eta = -sqrt(5) beta.
 * The restitution of that law depends on eta only (models/restitution.c), so beta is set
 * from e_n by inverting the exact e(eta) of the Hertz + dashpot impact, once per pair, with the
 * same tension rule as the force (tension = 0: P clipped at 0, the default; 1: the dashpot may
 * pull).  The linear-spring relation beta = ln e / sqrt(ln^2 e + pi^2) that several codes use
 * would deliver e = 0.325 / 0.472 / 0.632 / 0.808 for e_n = 0.2 / 0.4 / 0.6 / 0.8 with the
 * clipped force.  Provided for comparison with other DEM codes, not from the
 * dissertation. */
#include "gc_internal.h"

#include <math.h>
#include <stdio.h>

int gc_tsuji_setup(gc_pair *pair, char *msg, size_t n)
{
  double eta;
  int st = gc_damping_hertz_eta(pair->p.e_n, pair->p.tension, &eta);
  if (st) {
    snprintf(msg, n, "e_n = %g: cannot invert the Hertz restitution e(eta): %s", pair->p.e_n,
             gc_strerror(st));
    return st;
  }
  gc_tsuji_set_beta(pair, -eta / sqrt(5.0)); /* <= 0 */
  return GC_SUCCESS;
}

void gc_tsuji_set_beta(gc_pair *pair, double beta)
{
  pair->beta_damp = beta;
  /* 2 sqrt(5/6) (-beta) sqrt(k m*) = tsuji_c sqrt(k): sqrt(m*) once per pair */
  pair->tsuji_c = 2.0 * sqrt(5.0 / 6.0) * (-beta) * sqrt(pair->p.m_eff);
}

static int tsuji_damping(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha,
                         double alpha_dot, gc_normal *out)
{
  (void)h;
  return gc_tsuji_damping_step(pair, hn, alpha, alpha_dot, out);
}

const gc_submodel gc_damping_tsuji = {
  .name = "tsuji",
  .kind = GC_KIND_DAMPING,
  .description = "viscous damping, Tsuji et al. (1992) form, from e_n by the exact Hertz "
                 "inversion (e delivered = e_n)",
  .hist_size = 0,
  .params = { GC_PAR_E_N, GC_PAR_M_EFF, GC_PAR_TENSION, GC_NPAR },
  .setup = gc_tsuji_setup,
  .damping = tsuji_damping,
};
