/* chute_stats.c - steady-state diagnostic (chute_stats.h). */
#include "chute_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_fit.h>

#include "gc_model.h"
#include "stats.h"

int gc_steady_fit(const double *t, const double *v, size_t n, double window, size_t nbatch,
                  double conf, gc_steady *out, char *msg, size_t msglen)
{
  /* every field set on every path, NaN after an error (chute_stats.h) */
  *out = (gc_steady){ .t0 = NAN,
                      .t1 = NAN,
                      .conf = NAN,
                      .nbatch = 0,
                      .slope = NAN,
                      .half_ci = NAN,
                      .v_mean = NAN,
                      .r1 = NAN,
                      .verdict = -1 };
  if (!(window > 0) || !isfinite(window)) {
    snprintf(msg, msglen, "steady_window = %g out of range (0, inf) s", window);
    return GC_EINVAL;
  }
  if (nbatch < 3 || nbatch > 10000) {
    snprintf(msg, msglen, "steady_batches = %zu out of range [3, 10000]", nbatch);
    return GC_EINVAL;
  }
  if (!(conf > 0 && conf < 1)) {
    snprintf(msg, msglen, "confidence level %g out of range (0, 1)", conf);
    return GC_EINVAL;
  }
  if (n < nbatch || !(t[n - 1] - t[0] >= window * (1 - 1e-9))) {
    snprintf(msg, msglen, "the samples span %g s, less than the window of %g s",
             n ? t[n - 1] - t[0] : 0.0, window);
    return GC_EINVAL;
  }
  const double t1 = t[n - 1], t0 = t1 - window, h = window / (double)nbatch;
  double *bt = calloc(3 * nbatch, sizeof *bt);
  if (!bt) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  double *bv = bt + nbatch, *bn = bv + nbatch;
  /* the batches are [t0 + b h, t0 + (b + 1) h), the last one closed at t1 */
  size_t first = n;
  while (first > 0 && t[first - 1] >= t0 - 1e-12 * window)
    first--;
  double vsum = 0.0;
  for (size_t i = first; i < n; i++) {
    long b = (long)floor((t[i] - t0) / h);
    if (b < 0)
      b = 0;
    if (b >= (long)nbatch)
      b = (long)nbatch - 1;
    bt[b] += t[i];
    bv[b] += v[i];
    bn[b] += 1.0;
    vsum += v[i];
  }
  for (size_t b = 0; b < nbatch; b++) {
    if (!(bn[b] > 0)) {
      snprintf(msg, msglen,
               "steady-state window: batch %zu of %zu has no sample (samples too "
               "sparse for %zu batches over %g s)",
               b + 1, nbatch, nbatch, window);
      free(bt);
      return GC_EINVAL;
    }
    bt[b] /= bn[b];
    bv[b] /= bn[b];
  }
  double c0, c1, cov00, cov01, cov11, sumsq;
  if (gsl_fit_linear(bt, 1, bv, 1, nbatch, &c0, &c1, &cov00, &cov01, &cov11, &sumsq)) {
    free(bt);
    snprintf(msg, msglen, "steady-state fit: the linear regression failed");
    return GC_ENOCONV;
  }
  /* lag-1 autocorrelation of the residuals */
  double num = 0.0, den = 0.0, rprev = 0.0;
  for (size_t b = 0; b < nbatch; b++) {
    double r = bv[b] - (c0 + c1 * bt[b]);
    den += r * r;
    if (b)
      num += r * rprev;
    rprev = r;
  }
  free(bt);
  double q;
  if (gc_stat_t_quantile(0.5 + 0.5 * conf, (double)(nbatch - 2), &q)) {
    snprintf(msg, msglen, "steady-state fit: no t quantile at %g for %zu degrees of freedom",
             0.5 + 0.5 * conf, nbatch - 2);
    return GC_ENOCONV;
  }
  out->t0 = t0;
  out->t1 = t1;
  out->nbatch = nbatch;
  out->conf = conf;
  out->slope = c1;
  out->half_ci = q * sqrt(cov11);
  out->v_mean = vsum / (double)(n - first);
  out->r1 = den > 0 ? num / den : 0.0;
  out->verdict = fabs(c1) <= out->half_ci ? GC_STEADY_STEADY
                 : c1 > 0                 ? GC_STEADY_ACCELERATING
                                          : GC_STEADY_DECELERATING;
  if (!isfinite(out->slope) || !isfinite(out->half_ci)) {
    snprintf(msg, msglen, "steady-state fit: non-finite slope (velocity samples not finite?)");
    return GC_ENAN;
  }
  return GC_SUCCESS;
}

void gc_steady_format(const gc_steady *s, char *buf, size_t n)
{
  const char *what = s->verdict == GC_STEADY_STEADY         ? "steady: dv/dt ="
                     : s->verdict == GC_STEADY_ACCELERATING ? "accelerating at"
                                                            : "decelerating at";
  snprintf(buf, n,
           "%s %.3g +/- %.2g m/s^2 (%.0f %% CI, %zu batch means over %.4g-%.4g s, "
           "mean %.4g m/s, residual lag-1 autocorrelation %.2f)",
           what, s->slope, s->half_ci, 100 * s->conf, s->nbatch, s->t0, s->t1, s->v_mean, s->r1);
}
