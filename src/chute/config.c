/* config.c - the configuration: defaults, checks and the contact laws of each pair of radii (see
 * chute_int.h). */
#include "chute_int.h"

static int err_msg(char *msg, size_t n, int st, const char *fmt_name, double v, const char *range)
{
  if (msg && n)
    snprintf(msg, n, "%s = %g out of range %s", fmt_name, v, range);
  return st;
}

/* ---------- configuration ---------- */

void gc_chute_cfg_soybean(gc_chute_cfg *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  char msg[256];
  cfg->n_particles = 1200; /* table 9.1 */
  /* L, W, H = 7.3, 6.1, 5.5 mm, m = 0.149 g: four spheres of R_c = H/2 = 2.75 mm (sec. 2.2) */
  if (gc_shape_ellipsoid4(7.3e-3, 6.1e-3, 5.5e-3, 0.149e-3, &cfg->shape, msg, sizeof msg))
    memset(&cfg->shape, 0, sizeof cfg->shape); /* cannot happen with these numbers */
  cfg->length = 4.16e-2;                       /* table 9.2 */
  cfg->width = 15.20e-2;
  cfg->angle = 21.1 * M_PI / 180.0;
  cfg->gravity = 9.81;
  cfg->bottom = GC_BOTTOM_BEADS;
  cfg->bead_radius = 1.5e-3;  /* 3.0 mm glass beads */
  cfg->bead_spacing = 3.0e-3; /* touching beads requested: 3.2 mm, the nearest that tiles 4.16 cm */
  cfg->side_walls = 1;
  cfg->nfd = gc_preset_lookup("ep");
  cfg->tfd = gc_preset_lookup("ep");
  /* soybean (table 9.1); sY given and P_Y = 0, so P_Y is derived per pair geometry */
  gc_params soy;
  gc_params_default(&soy);
  soy.E1 = soy.E2 = 2.098e8;
  soy.nu1 = soy.nu2 = 0.4314;
  soy.sY1 = soy.sY2 = 4.857e6;
  soy.P_Y = 0.0;
  soy.C_a = 1.504e-5;
  soy.K_c = 2.954e-6;
  cfg->pp = soy;
  cfg->pp.mu = 0.267;
  /* glass beads: E = 6.3e10 Pa, nu = 0.23, do not yield (sY2 = 0); mu particle-glass 0.328 */
  cfg->pb = soy;
  cfg->pb.E2 = 6.3e10;
  cfg->pb.nu2 = 0.23;
  cfg->pb.sY2 = 0.0;
  cfg->pb.mu = 0.328;
  /* plexiglass side walls: E = 3.2e9 Pa, nu = 0.35, do not yield.  The seed gives no
   * particle-plexiglass friction coefficient: ASSUMPTION mu = 0.3 (between its two values). */
  cfg->pw = soy;
  cfg->pw.E2 = 3.2e9;
  cfg->pw.nu2 = 0.35;
  cfg->pw.sY2 = 0.0;
  cfg->pw.mu = 0.3;
  /* dt: "typically 1/40 of the duration of contact between two spheres" (sec. 4.2.3).  Hertz
   * duration (eq. 3.22) of two constituent spheres (R* = R_c/2, E* of soybean on soybean,
   * m* = m/2) at a typical impact speed of 1 m/s (the flow is ~0.3 m/s; 1 m/s is on the safe
   * side since tau ~ v^-1/5): tau = 1.37e-4 s, dt = 3.4e-6 s. */
  double Rc = 2.75e-3;
  double Es = 1.0 / (2.0 * (1.0 - soy.nu1 * soy.nu1) / soy.E1);
  cfg->dt = gc_hertz_contact_time(0.5 * 0.149e-3, 0.5 * Rc, Es, 1.0) / 40.0;
  cfg->skin = 0.5 * Rc;
  /* fill height: centres up to the height at which 1200 bounding spheres (radius 3.65 mm)
   * would fill the domain at a volume fraction of 0.45 (the clusters themselves fill 28 %;
   * random placement with the exact sphere-sphere test takes ~0.05 s; at 0.6 it fails):
   * bead top + r_b + N (4/3 pi r_b^3) / (0.45 L W) = 0.0015 + 0.00365 + 0.0861 = 0.0913 m.
   * The particles reach the bottom after ~0.15 s of free fall. */
  double rb = cfg->shape.bound_radius > 0 ? cfg->shape.bound_radius : 3.65e-3;
  cfg->fill_height =
      cfg->bead_radius + rb +
      cfg->n_particles * (4.0 / 3.0 * M_PI * rb * rb * rb) / (0.45 * cfg->length * cfg->width);
  cfg->seed = 1998;
  cfg->threads = 0;
}

int chute_check_cfg(const gc_chute_cfg *c, char *msg, size_t n)
{
  const gc_shape *s = &c->shape;
  if (c->n_particles < 1 || c->n_particles > (size_t)1 << 40)
    return err_msg(msg, n, GC_EINVAL, "n_particles", (double)c->n_particles, "[1, 2^40]");
  if (s->nsph < 1 || s->nsph > NSHAPE)
    return err_msg(msg, n, GC_EINVAL, "shape.nsph", (double)s->nsph, "[1, 16]");
  for (size_t k = 0; k < s->nsph; k++) {
    if (!(s->radius[k] > 0) || !isfinite(s->radius[k]))
      return err_msg(msg, n, GC_EINVAL, "shape.radius", s->radius[k], "(0, inf) m");
    for (int d = 0; d < 3; d++)
      if (!isfinite(s->pos[k][d]))
        return err_msg(msg, n, GC_EINVAL, "shape.pos", s->pos[k][d], "finite [m]");
  }
  if (!(s->mass > 0) || !isfinite(s->mass))
    return err_msg(msg, n, GC_EINVAL, "shape.mass", s->mass, "(0, inf) kg");
  for (int d = 0; d < 3; d++)
    if (!(s->inertia[d] > 0) || !isfinite(s->inertia[d]))
      return err_msg(msg, n, GC_EINVAL, "shape.inertia", s->inertia[d], "(0, inf) kg m^2");
  double rmax = 0, reach = 0;
  for (size_t k = 0; k < s->nsph; k++) {
    rmax = fmax(rmax, s->radius[k]);
    reach = fmax(reach, sqrt(dot3(s->pos[k], s->pos[k])) + s->radius[k]);
  }
  if (!(c->skin > 0) || !isfinite(c->skin))
    return err_msg(msg, n, GC_EINVAL, "skin", c->skin, "(0, inf) m");
  /* a sphere must not meet two images of another one, nor a cluster its own image */
  const int beads = c->bottom == GC_BOTTOM_BEADS || c->bottom == GC_BOTTOM_RANDOM;
  double rb = beads ? fmax(rmax, c->bead_radius) : rmax;
  double minper = fmax(2.0 * (rmax + rb + c->skin), 2.0 * reach + 2.0 * rmax + c->skin);
  if (!(c->length >= minper) || !isfinite(c->length)) {
    if (msg && n)
      snprintf(msg, n,
               "length = %g out of range [%g, inf) m (at least two particle sizes plus "
               "the skin)",
               c->length, minper);
    return GC_EINVAL;
  }
  double minw = c->side_walls ? 2.0 * reach : minper;
  if (!(c->width >= minw) || !isfinite(c->width)) {
    if (msg && n)
      snprintf(msg, n, "width = %g out of range [%g, inf) m", c->width, minw);
    return GC_EINVAL;
  }
  if (!(c->fill_height >= 0) || !isfinite(c->fill_height))
    return err_msg(msg, n, GC_EINVAL, "fill_height", c->fill_height, "[0, inf) m");
  if (!(fabs(c->angle) <= 0.5 * M_PI))
    return err_msg(msg, n, GC_EINVAL, "angle", c->angle, "[-pi/2, pi/2] rad");
  if (!(c->gravity >= 0) || !isfinite(c->gravity))
    return err_msg(msg, n, GC_EINVAL, "gravity", c->gravity, "[0, inf) m/s^2");
  if (c->bottom != GC_BOTTOM_BEADS && c->bottom != GC_BOTTOM_FLAT && c->bottom != GC_BOTTOM_NONE &&
      c->bottom != GC_BOTTOM_RANDOM)
    return err_msg(msg, n, GC_EINVAL, "bottom", c->bottom,
                   "{0 (beads), 1 (flat), 2 (none), 3 (random)}");
  if (beads && (!(c->bead_radius > 0) || !isfinite(c->bead_radius)))
    return err_msg(msg, n, GC_EINVAL, "bead_radius", c->bead_radius, "(0, inf) m");
  if (c->bottom == GC_BOTTOM_RANDOM && (!(c->bead_coverage > 0) || !(c->bead_coverage <= 0.5)))
    return err_msg(msg, n, GC_EINVAL, "bead_coverage", c->bead_coverage,
                   "(0, 0.5] (random sequential adsorption jams at 0.547)");
  if (c->keep_history != 0 && c->keep_history != 1)
    return err_msg(msg, n, GC_EINVAL, "keep_history", c->keep_history, "{0, 1}");
  if (c->rolling != 0 && c->rolling != 1)
    return err_msg(msg, n, GC_EINVAL, "rolling", c->rolling, "{0, 1}");
  if (c->bottom == GC_BOTTOM_BEADS) {
    if (!(c->bead_spacing >= 2.0 * c->bead_radius) || !(c->bead_spacing <= c->length) ||
        !(c->bead_spacing <= c->width)) {
      if (msg && n)
        snprintf(msg, n,
                 "bead_spacing = %g out of range [%g, %g] m (2 bead_radius .. min(length, "
                 "width))",
                 c->bead_spacing, 2.0 * c->bead_radius, fmin(c->length, c->width));
      return GC_EINVAL;
    }
  }
  if (c->side_walls != 0 && c->side_walls != 1)
    return err_msg(msg, n, GC_EINVAL, "side_walls", c->side_walls, "{0, 1}");
  if (!(c->dt > 0) || !isfinite(c->dt))
    return err_msg(msg, n, GC_EINVAL, "dt", c->dt, "(0, inf) s");
  if (!(c->local_damping >= 0 && c->local_damping < 1))
    return err_msg(msg, n, GC_EINVAL, "local_damping", c->local_damping, "[0, 1)");
  if ((c->rolling_model && c->rolling_model->kind != GC_KIND_ROLLING) ||
      (c->twisting_model && c->twisting_model->kind != GC_KIND_TWISTING)) {
    if (msg && n)
      snprintf(msg, n, "rolling_model / twisting_model: a sub-model of another kind was given");
    return GC_EINVAL;
  }
  if (c->threads < 0 || c->threads > 4096)
    return err_msg(msg, n, GC_EINVAL, "threads", c->threads, "[0, 4096] (0: OpenMP default)");
  if (!c->nfd) {
    if (msg && n)
      snprintf(msg, n, "nfd: no normal contact model given");
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

/* ---------- laws ---------- */

static int build_law(gc_law *law, const gc_chute_cfg *cfg, const gc_params *base, double R1,
                     double R2, const char *what, char *msg, size_t n)
{
  gc_params p = *base;
  p.R1 = R1;
  p.R2 = R2;
  char m2[256] = "";
  int st = gc_law_init_full(law, cfg->nfd, cfg->tfd, cfg->rolling_model, cfg->twisting_model, &p,
                            m2, sizeof m2);
  if (st && msg && n)
    snprintf(msg, n, "contact law %s (R1 = %g m, R2 = %g m): %s", what, R1, R2, m2);
  return st;
}

int chute_build_laws(chute_work *w, const gc_chute_cfg *cfg, char *msg, size_t n)
{
  const gc_shape *s = &cfg->shape;
  w->nrad = 0;
  for (size_t k = 0; k < s->nsph; k++) {
    size_t a;
    for (a = 0; a < w->nrad; a++)
      if (w->rad[a] == s->radius[k])
        break;
    if (a == w->nrad)
      w->rad[w->nrad++] = s->radius[k];
    w->srk[k] = a;
  }
  int st;
  for (size_t a = 0; a < w->nrad; a++) {
    for (size_t b = 0; b < w->nrad; b++)
      if ((st = build_law(&w->law_pp[a * w->nrad + b], cfg, &cfg->pp, w->rad[a], w->rad[b],
                          "pp (particle-particle)", msg, n)))
        return st;
    if ((st =
             build_law(&w->law_pw[a], cfg, &cfg->pw, w->rad[a], 0.0, "pw (particle-wall)", msg, n)))
      return st;
    if (cfg->bottom != GC_BOTTOM_NONE &&
        (st = build_law(&w->law_pb[a], cfg, &cfg->pb, w->rad[a],
                        cfg->bottom == GC_BOTTOM_FLAT ? 0.0 : cfg->bead_radius,
                        "pb (particle-bottom)", msg, n)))
      return st;
  }
  return GC_SUCCESS;
}

const gc_law *gc_chute_law_pp(const gc_chute *c, size_t k1, size_t k2)
{
  const chute_work *w = c->work;
  if (k1 >= c->nsph || k2 >= c->nsph)
    return NULL;
  return &w->law_pp[w->srk[k1] * w->nrad + w->srk[k2]];
}

const gc_law *gc_chute_law_pw(const gc_chute *c, size_t k)
{
  const chute_work *w = c->work;
  return k < c->nsph ? &w->law_pw[w->srk[k]] : NULL;
}

const gc_law *gc_chute_law_pb(const gc_chute *c, size_t k)
{
  const chute_work *w = c->work;
  return (k < c->nsph && c->cfg.bottom != GC_BOTTOM_NONE) ? &w->law_pb[w->srk[k]] : NULL;
}
