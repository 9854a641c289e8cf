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
    snprintf(msg, n, "normal model %s: no contact duration (it needs E > 0 and R > 0, or k_n > 0 "
             "for a linear one; mass %g kg, speed %g m/s)", law->name_normal, m_eff, v);
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
    snprintf(msg, n, "dt = %.4g s is above t_c/%d = %.4g s (t_c = %.4g s, the contact duration "
             "of %s)%s", dt, k == GC_DT_REFUSE ? GC_DT_REFUSE_NTCOL : GC_DT_WARN_NTCOL,
             tc / (k == GC_DT_REFUSE ? GC_DT_REFUSE_NTCOL : GC_DT_WARN_NTCOL), tc, what,
             k == GC_DT_REFUSE ? ": refused, the result would be wrong; give dt <= t_c/10"
                               : ": coarser than the seed's ntcol = 20 (sec. 8.4.1)");
  return k;
}
