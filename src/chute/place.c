/* place.c - the random initial placement (see chute_int.h). */
#include "chute_int.h"

/* ---------- random placement ---------- */

typedef struct {
  int n[3];
  double h[3], lo[3], L[3];
  int per[3];
  long *head, *next;
} place_grid;

static int cell_of(const place_grid *g, int d, double x)
{
  int i = (int)floor((x - g->lo[d]) / g->h[d]);
  if (i < 0)
    i = 0;
  if (i >= g->n[d])
    i = g->n[d] - 1;
  return i;
}

/* Does a sphere (centre s, radius r) overlap any placed particle sphere? */
static int grid_overlap(const place_grid *g, const gc_chute *c, const double s[3], double r)
{
  int ci[3];
  for (int d = 0; d < 3; d++)
    ci[d] = cell_of(g, d, s[d]);
  for (int a = -1; a <= 1; a++)
    for (int b = -1; b <= 1; b++)
      for (int e = -1; e <= 1; e++) {
        int cc[3] = { ci[0] + a, ci[1] + b, ci[2] + e };
        int skip = 0;
        for (int d = 0; d < 3; d++) {
          if (cc[d] < 0 || cc[d] >= g->n[d]) {
            if (!g->per[d]) {
              skip = 1;
              break;
            }
            cc[d] = (cc[d] + g->n[d]) % g->n[d];
          }
        }
        if (skip)
          continue;
        long cell = ((long)cc[0] * g->n[1] + cc[1]) * g->n[2] + cc[2];
        for (long j = g->head[cell]; j >= 0; j = g->next[j]) {
          double d2 = 0;
          for (int d = 0; d < 3; d++) {
            double dx = c->sx[3 * j + d] - s[d];
            if (g->per[d])
              dx -= g->L[d] * round(dx / g->L[d]);
            d2 += dx * dx;
          }
          double rr = r + c->sr[j];
          if (d2 < rr * rr)
            return 1;
        }
      }
  return 0;
}

/* Number the placed particles (x, q of np particles, permuted in place) in the spatial order
 * of order_work: particles that are neighbours in space are neighbours in memory, which is what
 * the caches and the threads' ranges need.  The flow keeps most of this order: it mixes along
 * the chute (x) quickly, across it (z) and in depth (y) slowly, and z, y are the slower keys
 * when the width is the longer side.  The same positions and orientations as drawn (the random
 * sequence is unchanged), only numbered differently. */
static int number_in_space(gc_chute *c, double *x, double *q, char *msg, size_t msglen)
{
  const size_t np = c->np;
  chute_work *w = c->work;
  double *tmp = malloc(7 * (np > 0 ? np : 1) * sizeof *tmp);
  if (!tmp) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  chute_sort_keys(c, x, 3, w->pkeys);
  for (size_t m = 0; m < np; m++) {
    size_t p = w->pkeys[m].p;
    memcpy(tmp + 7 * m, x + 3 * p, 3 * sizeof *x);
    memcpy(tmp + 7 * m + 3, q + 4 * p, 4 * sizeof *q);
  }
  for (size_t m = 0; m < np; m++) {
    memcpy(x + 3 * m, tmp + 7 * m, 3 * sizeof *x);
    memcpy(q + 4 * m, tmp + 7 * m + 3, 4 * sizeof *q);
  }
  free(tmp);
  return GC_SUCCESS;
}

int gc_chute_place_random(gc_chute *c, char *msg, size_t msglen)
{
  const gc_chute_cfg *cfg = &c->cfg;
  chute_work *w = c->work;
  const gc_shape *sh = &cfg->shape;
  double rmax = 0;
  for (size_t k = 0; k < sh->nsph; k++)
    rmax = fmax(rmax, sh->radius[k]);
  /* the bottom surface: particle spheres must stay above y_floor (beads: above the bead tops,
   * a conservative test; flat: above the plane; none: centres above 0) */
  double y_floor = c->nbeads ? cfg->bead_radius : cfg->bottom == GC_BOTTOM_FLAT ? 0.0 : -INFINITY;
  double ylo = cfg->bottom == GC_BOTTOM_NONE ? 0.0 : y_floor;
  if (!(cfg->fill_height > ylo + sh->bound_radius)) {
    snprintf(msg, msglen,
             "fill_height = %g out of range (%g, inf) m: no room above the bottom "
             "for a particle of bounding radius %g m",
             cfg->fill_height, ylo + sh->bound_radius, sh->bound_radius);
    return GC_EINVAL;
  }
  place_grid g;
  memset(&g, 0, sizeof g);
  g.lo[0] = 0;
  g.L[0] = cfg->length;
  g.lo[1] = ylo - sh->bound_radius;
  g.L[1] = cfg->fill_height + 2.0 * sh->bound_radius - g.lo[1];
  g.lo[2] = 0;
  g.L[2] = cfg->width;
  g.per[0] = 1;
  g.per[1] = 0;
  g.per[2] = !cfg->side_walls;
  long ncell = 1;
  for (int d = 0; d < 3; d++) {
    g.n[d] = (int)floor(g.L[d] / (2.0 * rmax));
    if (g.n[d] < 1)
      g.n[d] = 1;
    if (g.n[d] > 1000)
      g.n[d] = 1000;
    g.h[d] = g.L[d] / g.n[d];
    ncell *= g.n[d];
  }
  size_t nps = c->np * c->nsph;
  g.head = malloc((size_t)ncell * sizeof *g.head);
  g.next = malloc((nps > 0 ? nps : 1) * sizeof *g.next);
  double *x = malloc(3 * c->np * sizeof *x), *q = malloc(4 * c->np * sizeof *q);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = GC_SUCCESS;
  if (!g.head || !g.next || !x || !q || !rng) {
    snprintf(msg, msglen, "out of memory");
    st = GC_ENOMEM;
    goto done;
  }
  gsl_rng_set(rng, cfg->seed);
  for (long i = 0; i < ncell; i++)
    g.head[i] = -1;
  const long max_tries = 20000;
  for (size_t p = 0; p < c->np && !st; p++) {
    long tries;
    for (tries = 0; tries < max_tries; tries++) {
      double u[3] = { gsl_rng_uniform(rng), gsl_rng_uniform(rng), gsl_rng_uniform(rng) };
      double X[3];
      X[0] = cfg->length * gsl_rng_uniform(rng);
      X[1] = ylo + (cfg->fill_height - ylo) * gsl_rng_uniform(rng);
      X[2] = cfg->width * gsl_rng_uniform(rng);
      double Q[4], M[9];
      gc_quat_from_uniform(u, Q);
      gc_quat_to_matrix(Q, M);
      int bad = 0;
      double S[NSHAPE][3];
      for (size_t k = 0; k < sh->nsph && !bad; k++) {
        double o[3];
        matvec(M, sh->pos[k], o);
        double r = sh->radius[k];
        for (int d = 0; d < 3; d++)
          S[k][d] = X[d] + o[d];
        S[k][0] = chute_wrap(S[k][0], cfg->length);
        if (!cfg->side_walls)
          S[k][2] = chute_wrap(S[k][2], cfg->width);
        else if (S[k][2] < r || S[k][2] > cfg->width - r)
          bad = 1;
        if (cfg->bottom != GC_BOTTOM_NONE && S[k][1] - r < y_floor)
          bad = 1;
        if (!bad && grid_overlap(&g, c, S[k], r))
          bad = 1;
      }
      if (bad)
        continue;
      memcpy(x + 3 * p, X, sizeof X);
      memcpy(q + 4 * p, Q, sizeof Q);
      for (size_t k = 0; k < sh->nsph; k++) {
        size_t i = p * c->nsph + k;
        memcpy(c->sx + 3 * i, S[k], sizeof S[k]);
        long cell = ((long)cell_of(&g, 0, S[k][0]) * g.n[1] + cell_of(&g, 1, S[k][1])) * g.n[2] +
                    cell_of(&g, 2, S[k][2]);
        g.next[i] = g.head[cell];
        g.head[cell] = (long)i;
      }
      break;
    }
    if (tries == max_tries) {
      snprintf(msg, msglen,
               "cannot place particle %zu of %zu without overlap after %ld random "
               "trials: increase fill_height (now %g m) or reduce n_particles",
               p + 1, c->np, max_tries, cfg->fill_height);
      st = GC_EINVAL;
    }
  }
  if (!st)
    st = number_in_space(c, x, q, msg, msglen);
  if (!st)
    st = gc_chute_place(c, x, q, NULL, NULL, msg, msglen);
done:
  gsl_rng_free(rng);
  free(g.head);
  free(g.next);
  free(x);
  free(q);
  (void)w;
  return st;
}
