/* chute_stats.h - steady-state diagnostic of a chute run: is the mean flow velocity steady, or
 * how fast does it still change?  No I/O, no global state. */
#ifndef GC_CHUTE_STATS_H
#define GC_CHUTE_STATS_H

#include <stddef.h>

enum { GC_STEADY_STEADY = 0, GC_STEADY_ACCELERATING = 1, GC_STEADY_DECELERATING = 2 };

typedef struct {
  double t0, t1;  /* the window [s] */
  double conf;    /* confidence level of the interval */
  size_t nbatch;  /* batches used */
  double slope;   /* dv/dt [m/s^2] */
  double half_ci; /* half-width of the confidence interval of the slope [m/s^2] */
  double v_mean;  /* mean velocity over the window [m/s] */
  double r1;      /* lag-1 autocorrelation of the batch-mean residuals (near 0 if the
                        * batches are independent, as the interval assumes) */
  int verdict;    /* GC_STEADY_* */
} gc_steady;

/* Slope of v(t) over the trailing window [t_last - window, t_last] of the samples (t sorted
 * ascending), with its confidence interval at level `conf` (e.g. 0.95).
 *
 * The samples of a flow are strongly autocorrelated (the mean velocity fluctuates over tens of
 * milliseconds), so an ordinary least-squares interval over all samples would be far too
 * narrow.  The window is cut into nbatch batches of equal duration; the batch means (t_b, v_b)
 * are nearly independent when a batch is much longer than the correlation time (batch means,
 * e.g. Law & Kelton), and the slope and its variance come from gsl_fit_linear on them, with the
 * variance estimated from the residuals (nbatch - 2 degrees of freedom) and the Student t
 * quantile (gsl_cdf_tdist_Pinv).  r1 reports the lag-1 autocorrelation of the residuals as a
 * check of that assumption.  The verdict is "steady" when the interval contains 0, else
 * accelerating or decelerating.
 *
 * GC_EINVAL (msg says why) if window <= 0, nbatch < 3, conf not in (0, 1), the samples span
 * less than the window, or a batch holds no sample.  After an error *out's numbers are NaN
 * and its verdict -1. */
int gc_steady_fit(const double *t, const double *v, size_t n, double window, size_t nbatch,
                  double conf, gc_steady *out, char *msg, size_t msglen);

/* One line: "steady: dv/dt = X +/- Y m/s^2 ..." or "accelerating at X +/- Y m/s^2 ...". */
void gc_steady_format(const gc_steady *s, char *buf, size_t n);

#endif
