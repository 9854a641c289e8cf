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
