/* timestep.c - contact durations and the time-step rule (timestep.h). */
#include "timestep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int gc_law_contact_time_msg(const gc_law *law, double m_eff, double v, double *tc, char *msg,
                            size_t n)
{
  *tc = NAN;
  if (!(m_eff > 0) || !isfinite(m_eff)) {
    snprintf(msg, n, "mass = %g kg: no contact duration", m_eff);
    return GC_EINVAL;
  }
  if (gc_law_contact_time(law, m_eff, v, tc) || !(*tc > 0) || !isfinite(*tc)) {
    snprintf(msg, n,
             "normal model %s: no contact duration (it needs E > 0 and R > 0, or k_n > 0 "
             "for a linear one; mass %g kg, speed %g m/s)",
             law->name_normal, m_eff, v);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

int gc_dt_check(double dt, double tc, const char *what, char *msg, size_t n)
{
  int k = dt > tc / GC_DT_REFUSE_NTCOL ? GC_DT_REFUSE
          : dt > tc / GC_DT_WARN_NTCOL ? GC_DT_WARN
                                       : GC_DT_OK;
  if (k != GC_DT_OK)
    snprintf(msg, n,
             "dt = %.4g s is above t_c/%d = %.4g s (t_c = %.4g s, the contact duration "
             "of %s)%s",
             dt, k == GC_DT_REFUSE ? GC_DT_REFUSE_NTCOL : GC_DT_WARN_NTCOL,
             tc / (k == GC_DT_REFUSE ? GC_DT_REFUSE_NTCOL : GC_DT_WARN_NTCOL), tc, what,
             k == GC_DT_REFUSE ? ": refused, the result would be wrong; give dt <= t_c/10"
                               : ": coarser than the seed's ntcol = 20 (sec. 8.4.1)");
  return k;
}

/* A duration in words: "3.2 s", "4.1 h", "2.3e+03 years". */
static void duration_text(double s, char *buf, size_t n)
{
  if (s < 120)
    snprintf(buf, n, "%.2g s", s);
  else if (s < 7200)
    snprintf(buf, n, "%.2g min", s / 60);
  else if (s < 2 * 86400)
    snprintf(buf, n, "%.2g h", s / 3600);
  else if (s < 2 * 365.25 * 86400)
    snprintf(buf, n, "%.2g days", s / 86400);
  else
    snprintf(buf, n, "%.2g years", s / (365.25 * 86400));
}

int gc_steps_check(double dt, double span, const char *what, double dt_max, double sec_per_step,
                   char *msg, size_t n)
{
  double steps = span / dt;
  if (steps <= GC_STEPS_MAX)
    return GC_SUCCESS;
  char eta[32], way[160];
  duration_text(steps * sec_per_step, eta, sizeof eta);
  double dt_need = span / GC_STEPS_MAX;
  if (dt_need <= dt_max)
    snprintf(way, sizeof way, "give dt >= %.4g s (dt <= t_c/%d = %.4g s is required)", dt_need,
             GC_DT_REFUSE_NTCOL, dt_max);
  else
    snprintf(way, sizeof way, "at this dt, %s can be at most %.4g s", what, GC_STEPS_MAX * dt);
  snprintf(msg, n,
           "dt = %.4g s over %s = %.4g s is %.3g steps, above the limit of %g steps "
           "(about %s at an estimated %.2g s per step): %s",
           dt, what, span, steps, GC_STEPS_MAX, eta, sec_per_step, way);
  return GC_EINVAL;
}

int gc_impact_overlap_precheck(const gc_law *law, double m_eff, double v, const char *cause,
                               char *msg, size_t n)
{
  const double Es = law->pair.E_star, Rs = law->pair.R_star;
  if (gc_law_linear(law) || !(Es > 0) || !(Rs > 0))
    return GC_SUCCESS;
  double alpha = pow(15.0 * m_eff * v * v / (16.0 * Es * sqrt(Rs)), 0.4);
  if (alpha <= gc_law_overlap_limit(law))
    return GC_SUCCESS;
  snprintf(msg, n,
           "the elastic (Hertz) overlap of the impact at %.4g m/s, alpha = (15 m v^2 / "
           "(16 E* sqrt(R*)))^(2/5) = %.4g m, is alpha/R* = %.3g, beyond the geometric "
           "validity alpha <= %g R* (R* = %.4g m) of the contact laws%s%s",
           v, alpha, alpha / Rs, GC_ALPHA_R_MAX, Rs, cause ? ": " : "", cause ? cause : "");
  return GC_EPHYS;
}
