/* chute_bottom.c - the fixed glass beads of the chute bottom (see chute.h):
 *
 *  - GC_BOTTOM_BEADS: a hexagonal lattice that tiles the period along the flow exactly.  The
 *    seed says only "glass beads of 3.0 mm in diameter are attached to the chute bottom"
 *    (sec. 9.1.1), so the centre distance is a card value (bead_spacing).  A lattice whose
 *    rows run along x tiles the period `length` only with a spacing a = length / nx; granucal
 *    takes the nx whose spacing is nearest to the requested one (and >= 2 bead_radius, so
 *    beads do not overlap) and keeps the lattice regular: rows exactly a sqrt(3)/2 apart, so
 *    every bead has its nearest neighbours at exactly a.  With side walls the rows are centred
 *    across the width (no bead cuts a wall).  Without side walls (z periodic, tests) the rows
 *    must also tile the width: their number is the even number nearest to width / (a sqrt(3)/2)
 *    and the true nearest-neighbour distance, min(a, sqrt(a^2/4 + h^2)) with h = width / nrow,
 *    is reported.
 *  - GC_BOTTOM_RANDOM: a glued monolayer, by random sequential adsorption (RSA): bead centres
 *    drawn uniformly (gsl_rng mt19937, seed bottom_seed) in x in [0, length) and z in
 *    [bead_radius, width - bead_radius] (in [0, width) without side walls), each kept if it
 *    overlaps no bead kept before, until N = round(coverage length width / (pi r^2)) beads lie
 *    (coverage = area fraction of the floor; RSA of discs jams at 0.547, Feder 1980).  The plate
 *    the beads are glued on is not modelled, so the run refuses a monolayer with a hole through
 *    which a particle sphere could reach it: a sphere of radius R resting on the plate
 *    (centre at y = R - r) clears the beads (centres at y = 0, radius r) when its horizontal
 *    distance to every bead centre is at least sqrt((R + r)^2 - (R - r)^2) = 2 sqrt(R r).
 *
 * No global state, no I/O. */
#include "../chute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

/* Nearest-neighbour distance of a regular hexagonal lattice with spacing a along the rows and
 * row distance h (rows shifted by a/2 alternately). */
static double hex_nn(double a, double h)
{
  return fmin(a, sqrt(0.25 * a * a + h * h));
}

static int lattice(const gc_chute_cfg *cfg, double **out, gc_chute_bottom_info *info, char *msg,
                   size_t msglen)
{
  const double L = cfg->length, W = cfg->width, r = cfg->bead_radius;
  double nreq = L / cfg->bead_spacing;
  size_t nx = (size_t)llround(nreq);
  if (nx < 1)
    nx = 1;
  while (nx > 1 && L / (double)nx < 2.0 * r * (1.0 - 1e-12))
    nx--;
  double a = L / (double)nx, h = a * sqrt(3.0) / 2.0;
  size_t nrow;
  double z0, dz;
  if (cfg->side_walls) {
    if (W < 2.0 * r) {
      snprintf(msg, msglen, "bead_radius = %g m out of range (0, width/2 = %g] m", r, W / 2);
      return GC_EINVAL;
    }
    nrow = (size_t)floor((W - 2.0 * r) / h * (1.0 + 1e-12)) + 1;
    dz = h;
    z0 = 0.5 * (W - (double)(nrow - 1) * h);
  } else {
    /* rows tile the period across too: an even number (the half-a shift alternates) */
    size_t m = (size_t)llround(W / (2.0 * h));
    if (m < 1)
      m = 1;
    nrow = 2 * m;
    dz = W / (double)nrow;
    z0 = 0.5 * dz;
  }
  size_t n = nx * nrow;
  double *x = malloc(3 * n * sizeof *x);
  if (!x) {
    snprintf(msg, msglen, "out of memory (%zu bottom beads)", n);
    return GC_ENOMEM;
  }
  for (size_t row = 0; row < nrow; row++)
    for (size_t i = 0; i < nx; i++) {
      double *b = x + 3 * (row * nx + i);
      b[0] = ((double)i + ((row & 1) ? 0.5 : 0.0)) * a;
      b[1] = 0.0;
      b[2] = z0 + (double)row * dz;
    }
  info->n = n;
  info->nx = nx;
  info->nrow = nrow;
  info->spacing = a;
  info->row_distance = dz;
  info->nn = nrow > 1 ? hex_nn(a, dz) : a;
  info->coverage = (double)n * M_PI * r * r / (L * W);
  info->max_hole = -1.0;
  *out = x;
  return GC_SUCCESS;
}

/* Cell grid over the floor for the RSA overlap test: cells at least 2 r wide. */
typedef struct {
  size_t nx, nz;
  double hx, hz, L, W;
  int perz;
  long *head, *next;
} floor_grid;

static void grid_cell(const floor_grid *g, const double *b, size_t *ix, size_t *iz)
{
  long i = (long)floor(b[0] / g->hx), k = (long)floor(b[2] / g->hz);
  *ix = (size_t)(i < 0 ? 0 : i >= (long)g->nx ? (long)g->nx - 1 : i);
  *iz = (size_t)(k < 0 ? 0 : k >= (long)g->nz ? (long)g->nz - 1 : k);
}

/* Smallest horizontal distance from (px, pz) to a bead centre, searched within `reach`
 * (returns reach if none is closer). */
static double grid_nearest(const floor_grid *g, const double *xyz, double px, double pz,
                           double reach)
{
  double p[3] = { px, 0.0, pz }, best = reach * reach;
  size_t ix, iz;
  grid_cell(g, p, &ix, &iz);
  long sx = (long)ceil(reach / g->hx), sz = (long)ceil(reach / g->hz);
  for (long a = -sx; a <= sx; a++) {
    long cx = ((long)ix + a + (long)g->nx * (1 + sx)) % (long)g->nx;
    for (long c = -sz; c <= sz; c++) {
      long cz = (long)iz + c;
      if (g->perz)
        cz = (cz % (long)g->nz + (long)g->nz) % (long)g->nz;
      else if (cz < 0 || cz >= (long)g->nz)
        continue;
      for (long j = g->head[(size_t)cx * g->nz + (size_t)cz]; j >= 0; j = g->next[j]) {
        double dx = xyz[3 * j] - px, dz = xyz[3 * j + 2] - pz;
        dx -= g->L * round(dx / g->L);
        if (g->perz)
          dz -= g->W * round(dz / g->W);
        double d2 = dx * dx + dz * dz;
        if (d2 < best)
          best = d2;
      }
    }
  }
  return sqrt(best);
}

static int rsa(const gc_chute_cfg *cfg, double **out, gc_chute_bottom_info *info, char *msg,
               size_t msglen)
{
  const double L = cfg->length, W = cfg->width, r = cfg->bead_radius;
  const double zlo = cfg->side_walls ? r : 0.0, zhi = cfg->side_walls ? W - r : W;
  size_t n = (size_t)llround(cfg->bead_coverage * L * W / (M_PI * r * r));
  if (n < 1)
    n = 1;
  floor_grid g;
  memset(&g, 0, sizeof g);
  g.L = L;
  g.W = W;
  g.perz = !cfg->side_walls;
  g.nx = (size_t)floor(L / (2.0 * r));
  g.nz = (size_t)floor(W / (2.0 * r));
  if (g.nx < 1)
    g.nx = 1;
  if (g.nz < 1)
    g.nz = 1;
  g.hx = L / (double)g.nx;
  g.hz = W / (double)g.nz;
  double *x = malloc(3 * n * sizeof *x);
  g.head = malloc(g.nx * g.nz * sizeof *g.head);
  g.next = malloc(n * sizeof *g.next);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = GC_SUCCESS;
  if (!x || !g.head || !g.next || !rng) {
    snprintf(msg, msglen, "out of memory (%zu bottom beads)", n);
    st = GC_ENOMEM;
    goto done;
  }
  gsl_rng_set(rng, cfg->bottom_seed);
  for (size_t i = 0; i < g.nx * g.nz; i++)
    g.head[i] = -1;
  /* RSA slows down near jamming (the uncovered fraction falls as 1/sqrt(attempts)); 400
   * attempts per bead reach 0.5 on a 4 x 15 cm floor with a wide margin */
  const unsigned long max_tries = 400ul * (unsigned long)n + 100000ul;
  unsigned long tries = 0;
  size_t placed = 0;
  while (placed < n && tries < max_tries) {
    tries++;
    double b[3] = { L * gsl_rng_uniform(rng), 0.0, zlo + (zhi - zlo) * gsl_rng_uniform(rng) };
    if (b[0] >= L)
      b[0] = 0.0;
    if (g.perz && b[2] >= W)
      b[2] = 0.0;
    if (grid_nearest(&g, x, b[0], b[2], 2.0 * r) < 2.0 * r)
      continue;
    memcpy(x + 3 * placed, b, sizeof b);
    size_t ix, iz;
    grid_cell(&g, b, &ix, &iz);
    g.next[placed] = g.head[ix * g.nz + iz];
    g.head[ix * g.nz + iz] = (long)placed;
    placed++;
  }
  if (placed < n) {
    snprintf(msg, msglen,
             "bead_coverage = %g not reached: %zu of %zu beads placed after %lu "
             "random trials (random sequential adsorption jams at 0.547; use <= 0.5)",
             cfg->bead_coverage, placed, n, tries);
    st = GC_EINVAL;
    goto done;
  }
  /* (a cell visited twice when the reach exceeds the period does not change the minimum) */
  /* the largest hole: the largest distance from a floor point to the nearest bead centre, on a
   * grid of r/8 */
  double rmin = INFINITY;
  for (size_t k = 0; k < cfg->shape.nsph; k++)
    rmin = fmin(rmin, cfg->shape.radius[k]);
  double crit = 2.0 * sqrt(rmin * r), hole = 0.0, step = r / 8.0;
  size_t mx = (size_t)ceil(L / step), mz = (size_t)ceil((zhi - zlo) / step) + 1;
  for (size_t i = 0; i < mx; i++)
    for (size_t k = 0; k < mz; k++) {
      double px = (double)i * L / (double)mx;
      double pz = zlo + (double)k * (zhi - zlo) / (double)(mz > 1 ? mz - 1 : 1);
      hole = fmax(hole, grid_nearest(&g, x, px, pz, 1.5 * crit));
    }
  if (hole >= crit) {
    snprintf(msg, msglen,
             "bead_coverage = %g: the random bottom has a hole of radius %.3g m, "
             "through which a particle sphere of radius %g m reaches the plate under the beads "
             "(not modelled; needs < 2 sqrt(R r) = %.3g m): raise bead_coverage or change "
             "bottom_seed",
             cfg->bead_coverage, hole, rmin, crit);
    st = GC_EINVAL;
    goto done;
  }
  info->n = n;
  info->nx = 0;
  info->nrow = 0;
  info->spacing = 0.0;
  info->row_distance = 0.0;
  {
    double nn = INFINITY;
    for (size_t i = 0; i < n; i++) {
      /* nearest other bead: search a growing reach */
      double save = x[3 * i];
      x[3 * i] = NAN; /* exclude bead i itself (NaN distances never compare smaller) */
      double d = grid_nearest(&g, x, save, x[3 * i + 2], 8.0 * r);
      x[3 * i] = save;
      nn = fmin(nn, d);
    }
    info->nn = nn;
  }
  info->coverage = (double)n * M_PI * r * r / (L * W);
  info->max_hole = hole;
  *out = x;
  x = NULL;
done:
  gsl_rng_free(rng);
  free(g.head);
  free(g.next);
  free(x);
  return st;
}

int gc_chute_bottom_build(const gc_chute_cfg *cfg, double **xyz, gc_chute_bottom_info *info,
                          char *msg, size_t msglen)
{
  *xyz = NULL;
  memset(info, 0, sizeof *info);
  if (cfg->bottom == GC_BOTTOM_BEADS)
    return lattice(cfg, xyz, info, msg, msglen);
  if (cfg->bottom == GC_BOTTOM_RANDOM)
    return rsa(cfg, xyz, info, msg, msglen);
  return GC_SUCCESS;
}
