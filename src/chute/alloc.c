/* alloc.c - the simulator's memory: allocation, growth of the scratch, release (see chute_int.h).
 * */
#include "chute_int.h"

/* ---------- allocation ---------- */

double gc_chute_memory_estimate(const gc_chute_cfg *cfg)
{
  /* in double: a typo in the domain must not overflow the estimate itself */
  double nb = 0;
  if (cfg->bottom == GC_BOTTOM_BEADS && cfg->bead_spacing > 0) {
    double nx = fmax(1.0, floor(cfg->length / cfg->bead_spacing));
    double a = cfg->length / nx;
    nb = nx * fmax(1.0, floor(cfg->width / (a * sqrt(3.0) / 2.0)));
  }
  double np = (double)cfg->n_particles, nps = np * (double)cfg->shape.nsph, ns = nps + nb;
  double rmax = 0;
  for (size_t k = 0; k < cfg->shape.nsph; k++)
    rmax = fmax(rmax, cfg->shape.radius[k]);
  double bytes = np * (double)(sizeof(gc_rot) + 15 * sizeof(double))    /* x, v, force, ... */
                 + ns * (double)(4 * sizeof(double) + sizeof(long) + 1) /* sx, sr, owner, fixed */
                 + nps * (3.0 * (double)sizeof(gc_chute_contact) + 10 * sizeof(double)) +
                 ns * 14.0 * sizeof(double) /* neighbour-list arrays per sphere */
                 + ns * 8.0 * ((double)sizeof(gc_chute_contact) + 11 * sizeof(double)); /* pairs */
  if (rmax > 0) { /* the random-placement grid (gc_chute_place_random) */
    double L[3] = { cfg->length, cfg->fill_height + 4 * rmax, cfg->width }, cells = 1;
    for (int d = 0; d < 3; d++)
      cells *= fmin(1000.0, fmax(1.0, floor(L[d] / (2.0 * rmax))));
    bytes += cells * sizeof(long);
  }
  return bytes;
}

void gc_chute_free(gc_chute *c)
{
  if (!c)
    return;
  chute_work *w = c->work;
  if (w) {
    free(w->soff);
    free(w->simg);
    free(w->wsp);
    free(w->lawk);
    free(w->pf);
    free(w->pact);
    free(w->pen);
    free(w->hist);
    free(w->cpe);
    free(w->cpp);
    free(w->porder);
    free(w->pstart);
    free(w->path);
    free(w->apart_until);
    free(w->rpath);
    free(w->pkeys);
    free(w->sto);
    free(w->pbuf);
    free(w->bnd);
    free(w->tph);
    free(w->tpo);
    free(w->tsum);
    free(w->ndefer);
    free(w->plo);
    free(w->phi);
    free(w->acc);
    free(w->gq);
    free(w->gside);
    free(w->wact);
    free(w);
  }
  gc_nlist_free(c->nl);
  free(c->x);
  free(c->v);
  free(c->rot);
  free(c->force);
  free(c->torque);
  free(c->id);
  free(c->index_of);
  free(c->sx);
  free(c->sr);
  free(c->owner);
  free(c->fixed);
  free(c->wall);
  free(c);
}

int chute_grow_scratch(chute_work *w, size_t npairs)
{
  if (npairs <= w->cap)
    return GC_SUCCESS;
  size_t cap = npairs + npairs / 2 + 64;
  double *pf = realloc(w->pf, 9 * cap * sizeof *pf);
  if (!pf)
    return GC_ENOMEM;
  w->pf = pf;
  unsigned char *pa = realloc(w->pact, cap);
  if (!pa)
    return GC_ENOMEM;
  w->pact = pa;
  unsigned char *hi = realloc(w->hist, cap);
  if (!hi)
    return GC_ENOMEM;
  w->hist = hi;
  double *au = realloc(w->apart_until, cap * sizeof *au);
  if (!au)
    return GC_ENOMEM;
  w->apart_until = au;
  w->cap = cap;
  return GC_SUCCESS;
}

/* Room in gq, gside on each of maxthreads threads for the pairs of the particle that has the
 * most in the list (gather_pairs): the list's pairs per sphere must be formed. */
int chute_grow_gather(const gc_chute *c, chute_work *w)
{
  size_t most = 0;
  for (size_t p = 0; p < c->np; p++) {
    size_t n = 0;
    for (size_t k = 0; k < c->nsph; k++) {
      const uint32_t *idx;
      size_t nk;
      gc_nlist_sphere_pairs(c->nl, p * c->nsph + k, &idx, &nk);
      n += nk;
    }
    most = n > most ? n : most;
  }
  if (w->gq && most <= w->gcap)
    return GC_SUCCESS;
  const size_t cap = most + most / 2 + 16, nt = (size_t)w->maxthreads;
  uint32_t *q = realloc(w->gq, nt * cap * sizeof *q);
  if (!q)
    return GC_ENOMEM;
  w->gq = q;
  unsigned char *side = realloc(w->gside, nt * cap);
  if (!side)
    return GC_ENOMEM;
  w->gside = side;
  w->gcap = cap;
  return GC_SUCCESS;
}

/* The state and workspace arrays of c (sizes set), its neighbour list and its scratch:
 * GC_SUCCESS or GC_ENOMEM. */
static int alloc_arrays(gc_chute *c, const gc_chute_cfg *cfg)
{
  chute_work *w = c->work;
  const size_t nps = c->np * c->nsph;
  c->x = calloc(3 * c->np, sizeof *c->x);
  c->v = calloc(3 * c->np, sizeof *c->v);
  c->rot = calloc(c->np, sizeof *c->rot);
  c->force = calloc(3 * c->np, sizeof *c->force);
  c->torque = calloc(3 * c->np, sizeof *c->torque);
  c->id = calloc(c->np + 1, sizeof *c->id);
  c->index_of = calloc(c->np + 1, sizeof *c->index_of);
  c->sx = calloc(3 * c->ns, sizeof *c->sx);
  c->sr = calloc(c->ns, sizeof *c->sr);
  c->owner = calloc(c->ns, sizeof *c->owner);
  c->fixed = calloc(c->ns, sizeof *c->fixed);
  /* every law of the chute composes the same sub-models: one history size */
  c->nhist = gc_law_history_size(&w->law_pp[0]);
  c->rec_size = sizeof(gc_chute_contact) + c->nhist * sizeof(double);
  c->wall = calloc(w->nwall_per * nps, c->rec_size);
  w->soff = calloc(3 * nps, sizeof *w->soff);
  w->simg = calloc(3 * nps, sizeof *w->simg);
  w->wsp = calloc(3 * c->np, sizeof *w->wsp);
  w->lawk = calloc(nps, sizeof *w->lawk);
  w->pen = calloc(PEN_N * c->np, sizeof *w->pen);
  w->cpp = calloc(PEN_N * (c->np / CHUNK + 1), sizeof *w->cpp);
  w->cpe = calloc(CEN_N * (c->np / CHUNK + 1), sizeof *w->cpe);
  w->porder = calloc(c->np + 1, sizeof *w->porder);
  w->pstart = calloc(c->np + 1, sizeof *w->pstart);
  w->path = calloc(c->ns + 1, sizeof *w->path);
  w->rpath = calloc(c->np + 1, sizeof *w->rpath);
  w->pkeys = calloc(2 * c->np + 1, sizeof *w->pkeys);
  w->wact = calloc(w->nwall_per * nps + 1, 1);
  w->sto = calloc(c->ns + 1, sizeof *w->sto);
#ifdef _OPENMP
  w->maxthreads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
#else
  w->maxthreads = 1;
#endif
  if (w->maxthreads < 1)
    w->maxthreads = 1;
  w->bnd = calloc((size_t)w->maxthreads + 1, sizeof *w->bnd);
  w->tph = calloc((size_t)w->maxthreads, sizeof *w->tph);
  w->tpo = calloc((size_t)w->maxthreads, sizeof *w->tpo);
  w->tsum = calloc((size_t)w->maxthreads, sizeof *w->tsum);
  w->ndefer = calloc((size_t)w->maxthreads, sizeof *w->ndefer);
  w->plo = calloc(c->np + 1, sizeof *w->plo);
  w->phi = calloc(c->np + 1, sizeof *w->phi);
  w->acc = calloc(6 * c->np + 1, sizeof *w->acc);
  {
    /* the widest row a renumbering moves: a particle's wall records, else its orientation */
    size_t row = w->nwall_per * c->nsph * c->rec_size;
    row = row > sizeof(gc_rot) ? row : sizeof(gc_rot);
    row = row > 3 * c->nsph * sizeof(double) ? row : 3 * c->nsph * sizeof(double);
    w->prow = row;
    w->pbuf = malloc(row + c->np + 1);
  }
  c->nl = gc_nlist_alloc(c->ns, c->rec_size);
  if (!c->x || !c->v || !c->rot || !c->force || !c->torque || !c->sx || !c->sr || !c->owner ||
      !c->fixed || !c->wall || !w->soff || !w->simg || !w->wsp || !w->lawk || !w->pen || !w->cpp ||
      !w->cpe || !w->porder || !w->pstart || !w->path || !w->rpath || !w->pkeys || !w->wact ||
      !w->sto || !w->pbuf || !c->id || !c->index_of || !c->nl || !w->bnd || !w->tph || !w->tpo ||
      !w->tsum || !w->ndefer || !w->plo || !w->phi || !w->acc || chute_grow_scratch(w, 8 * c->ns))
    return GC_ENOMEM;
  return GC_SUCCESS;
}

/* The bounds of the shape the wall tests take (centred, pmax, wall_clear). */
static void shape_bounds(chute_work *w, const gc_chute_cfg *cfg)
{
  w->centred = cfg->shape.nsph == 1 && cfg->shape.pos[0][0] == 0.0 && cfg->shape.pos[0][1] == 0.0 &&
               cfg->shape.pos[0][2] == 0.0;
  w->pmax = 0.0;
  for (size_t k = 0; k < cfg->shape.nsph; k++) {
    const double pk = sqrt(dot3(cfg->shape.pos[k], cfg->shape.pos[k]));
    w->pmax = pk > w->pmax ? pk : w->pmax;
  }
  /* a sphere's centre, (x + simg) + R(q) pos_k with simg = 0 on the axes that have walls, is
   * within |pos_k| of the particle's up to a few roundings of the coordinates (~1e-17 m in the
   * soybean chute), so no sphere reaches a wall from farther than the shape's bound
   * |pos_k| + r_k; the allowance, 1e-9 of the bound (3.7e-12 m for the soybean) and 1e-12 of
   * the width (the coordinates' size), is far above those roundings (walls_apart) */
  w->wall_clear = cfg->shape.bound_radius * (1.0 + 1e-9) + 1e-12 * cfg->width;
}

/* The spheres' radii, owners and fixed flags, the particles at rest in the identity
 * orientation, the beads at their places (3 nbeads coordinates [m]). */
static void fill_spheres(gc_chute *c, const gc_chute_cfg *cfg, const double *beads)
{
  chute_work *w = c->work;
  const size_t nps = c->np * c->nsph;
  for (size_t p = 0; p < c->np; p++) {
    gc_quat_identity(c->rot[p].q);
    c->id[p] = c->index_of[p] = p;
    for (size_t k = 0; k < c->nsph; k++) {
      size_t i = p * c->nsph + k;
      c->sr[i] = cfg->shape.radius[k];
      c->owner[i] = (long)p;
      c->fixed[i] = 0;
      w->lawk[i] = k;
    }
  }
  for (size_t k = 0; k < c->nbeads; k++) {
    size_t b = nps + k;
    memcpy(c->sx + 3 * b, beads + 3 * k, 3 * sizeof *beads);
    c->sr[b] = cfg->bead_radius;
    c->owner[b] = -1;
    c->fixed[b] = 1;
  }
}

/* The neighbour-list box and the gravity vector in the chute's frame. */
static void set_box_gravity(gc_chute *c, const gc_chute_cfg *cfg)
{
  chute_work *w = c->work;
  /* neighbour-list box: x periodic over [0, length), z periodic over [0, width) without side
   * walls; y from below the bottom to above the fill height (spheres outside are clamped into
   * the edge cells by gc_nlist). */
  double rmax = 0;
  for (size_t k = 0; k < c->nsph; k++)
    rmax = fmax(rmax, cfg->shape.radius[k]);
  double ylo = c->nbeads ? -cfg->bead_radius : 0.0;
  double yhi = fmax(cfg->fill_height, ylo + 2.0 * rmax + cfg->skin) + cfg->shape.bound_radius;
  w->box.lo[0] = 0.0;
  w->box.hi[0] = cfg->length;
  w->box.lo[1] = ylo;
  w->box.hi[1] = yhi;
  w->box.lo[2] = 0.0;
  w->box.hi[2] = cfg->width;
  w->box.periodic[0] = 1;
  w->box.periodic[1] = 0;
  w->box.periodic[2] = cfg->side_walls ? 0 : 1;
  w->box.skin = cfg->skin;
  w->g[0] = cfg->gravity * sin(cfg->angle);
  w->g[1] = -cfg->gravity * cos(cfg->angle);
  w->g[2] = 0.0;
}

int gc_chute_alloc(gc_chute **out, const gc_chute_cfg *cfg, char *msg, size_t msglen)
{
  *out = NULL;
  int st = chute_check_cfg(cfg, msg, msglen);
  if (st)
    return st;
  gc_chute *c = calloc(1, sizeof *c);
  chute_work *w = c ? calloc(1, sizeof *w) : NULL;
  if (!w) {
    free(c);
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  c->work = w;
  c->cfg = *cfg;
  if ((st = chute_build_laws(w, cfg, msg, msglen))) {
    gc_chute_free(c);
    return st;
  }
  double *beads = NULL;
  if ((st = gc_chute_bottom_build(cfg, &beads, &c->bottom, msg, msglen))) {
    gc_chute_free(c);
    return st;
  }
  c->np = cfg->n_particles;
  c->nsph = cfg->shape.nsph;
  c->nbeads = c->bottom.n;
  c->ns = c->np * c->nsph + c->nbeads;
  w->nwall_per = cfg->bottom == GC_BOTTOM_FLAT ? 3 : 2;
  if (alloc_arrays(c, cfg)) {
    free(beads);
    gc_chute_free(c);
    snprintf(msg, msglen, "out of memory (%zu particles, %zu spheres)", cfg->n_particles,
             (size_t)(cfg->n_particles * cfg->shape.nsph));
    return GC_ENOMEM;
  }
  /* a region of young contact rows for each thread the steps may run on (gc_nlist_payload_on
   * in pair_contact; a build's own thread count follows its pairs, the steps' their pairs) */
  gc_nlist_set_writers(c->nl, w->maxthreads);
  shape_bounds(w, cfg);
  fill_spheres(c, cfg, beads);
  free(beads);
  set_box_gravity(c, cfg);
  *out = c;
  return GC_SUCCESS;
}
