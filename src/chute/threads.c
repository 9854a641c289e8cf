/* threads.c - thread scheduling: thread counts and the threads' shares of the chunks (see
 * chute_int.h). */
#include "chute_int.h"

/* Threads of the parallel loops: cfg.threads when given; by default the OpenMP default, but a
 * single thread for small systems (below ~1000 pairs the fork/join and barrier costs exceed the
 * work, and on a loaded machine spinning barriers are very slow); at most the workspace's
 * maxthreads (room in bnd and tph; the OpenMP default may have grown since the allocation).
 * Results do not depend on it. */
int chute_nthreads(const gc_chute *c, size_t work)
{
#ifdef _OPENMP
  const chute_work *w = c->work;
  const int n = c->cfg.threads > 0 ? c->cfg.threads : work < 1000 ? 1 : omp_get_max_threads();
  if (w->probe.one)
    return 1;
  return n < w->maxthreads ? n : w->maxthreads;
#else
  (void)c;
  (void)work;
  return 1;
#endif
}

/* Move each boundary between two threads' shares one chunk towards the thread whose walks took
 * more than 2 % longer in the last BALANCE_STEPS steps (a chunk is 1 / 19 of a thread's share
 * in the soybean chute on 2 threads, so the shares settle within ~3 % of balance).  Not after
 * each step: one step's walk times differ by as much by chance, and the boundary moved in 86 %
 * of the steps of the dilute soybean flow; each move hands a chunk's particles, pairs and
 * contact records to the other core, whose first reads of them then miss its caches (the
 * threads' walks took 1.14x, their contact laws 1.41x, the processor time of one thread).
 * A step lasts the longest walk (the barrier) plus the longest part after it, so the two parts
 * are balanced each on its own: the walks by the boundaries, the parts after the barrier by
 * the moves each thread defers to it (ndefer, LANES more per step while its part is below 90 %
 * of the longest, LANES fewer while it is the longest; that moves no data between the cores).
 * Balanced on whole times instead, the walk of the thread with fewer waiting particles was
 * ~6 % the longer on the soybean chute on 2 threads. */
void chute_balance_shares(chute_work *w, size_t np)
{
  size_t *b = w->bnd;
  double *tp = w->tsum;
  for (int t = 0; t < w->nbnd; t++)
    tp[t] += w->tph[t];
  if (++w->nsum == BALANCE_STEPS) {
    for (int t = 0; t + 1 < w->nbnd; t++) {
      if (tp[t] > 1.02 * tp[t + 1] && b[t + 1] > b[t] + 1)
        b[t + 1]--;
      else if (tp[t + 1] > 1.02 * tp[t] && b[t + 1] + 1 < b[t + 2])
        b[t + 1]++;
    }
    for (int t = 0; t < w->nbnd; t++)
      tp[t] = 0.0;
    w->nsum = 0;
  }
  double longest = 0.0;
  for (int t = 0; t < w->nbnd; t++)
    longest = w->tpo[t] > longest ? w->tpo[t] : longest;
  for (int t = 0; t < w->nbnd; t++) {
    const size_t share = (b[t + 1] - b[t]) * CHUNK < np ? (b[t + 1] - b[t]) * CHUNK : np;
    if (w->tpo[t] < 0.9 * longest && w->ndefer[t] + LANES <= share)
      w->ndefer[t] += LANES;
    else if (w->tpo[t] == longest && w->ndefer[t] >= LANES)
      w->ndefer[t] -= LANES;
  }
}

#ifdef _OPENMP
static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *t, int n)
{
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
#endif

/* one thread from this step on; the shares of the threads before it kept */
static void probe_to_one(chute_work *w)
{
  thread_probe *pr = &w->probe;
  if (!pr->one && w->nbnd > 1 && w->nbnd <= PROBE_KEEP) {
    pr->keep_n = w->nbnd;
    memcpy(pr->keep_bnd, w->bnd, (size_t)(w->nbnd + 1) * sizeof *w->bnd);
    memcpy(pr->keep_defer, w->ndefer, (size_t)w->nbnd * sizeof *w->ndefer);
  }
  pr->one = 1;
}

/* all threads from this step on, with their kept shares */
static void probe_to_all(chute_work *w)
{
  thread_probe *pr = &w->probe;
  if (pr->one && pr->keep_n > 1) {
    memcpy(w->bnd, pr->keep_bnd, (size_t)(pr->keep_n + 1) * sizeof *w->bnd);
    memcpy(w->ndefer, pr->keep_defer, (size_t)pr->keep_n * sizeof *w->ndefer);
    for (int t = 0; t < pr->keep_n; t++)
      w->tsum[t] = 0.0;
    w->nsum = 0;
    w->nbnd = pr->keep_n;
  }
  pr->one = 0;
}

/* At the start of a step: the wall time of the last one into the thread probe (thread_probe),
 * which then sets probe.one for this step.  Only where more than one thread would run. */
void chute_adapt_threads(gc_chute *c)
{
#ifdef _OPENMP
  chute_work *w = c->work;
  thread_probe *pr = &w->probe;
  const int n = c->cfg.threads > 0 ? c->cfg.threads : omp_get_max_threads();
  if (w->maxthreads < 2 || n < 2) {
    pr->one = 0;
    return;
  }
  const double now = omp_get_wtime(), dt = pr->t_last > 0 ? now - pr->t_last : -1.0;
  pr->t_last = now;
  if (pr->phase > 0 && dt >= 0 && pr->left < PROBE_STEPS)
    pr->times[pr->phase - 1][pr->n++] = dt; /* the first step of a phase settles */
  if (pr->left > 0) {
    pr->left--;
    return;
  }
  if (pr->phase == 1) { /* one thread measured: now all */
    pr->phase = 2;
    probe_to_all(w);
    pr->n = 0;
    pr->left = PROBE_STEPS;
  } else if (pr->phase == 2) { /* both measured: keep the faster until the next probe */
    if (median_of(pr->times[0], PROBE_STEPS) < median_of(pr->times[1], PROBE_STEPS))
      probe_to_one(w);
    pr->phase = 0;
    pr->left = PROBE_PERIOD;
  } else { /* a probe: one thread first */
    pr->phase = 1;
    probe_to_one(w);
    pr->n = 0;
    pr->left = PROBE_STEPS;
  }
#else
  (void)c;
#endif
}
