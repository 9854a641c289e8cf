/* cmd_export.c - `granucal export lammps`: a ready LAMMPS deck of a chute card, so that a
 * calibrated chute runs in LAMMPS with MPI (issue: beyond one machine).
 *
 * The deck reproduces granucal's chute (chute.h) in LAMMPS's terms:
 *  - axes as granucal: x along the flow (periodic, period `length`), y normal to the bottom
 *    (bead centres at y = 0), z across (side walls at z = 0 and z = width, or periodic);
 *    gravity g (sin a, -cos a, 0);
 *  - the bumpy bottom: the same bead centres (gc_chute_bottom_build), frozen atoms of type 2
 *    (fix freeze);
 *  - the particles: the same initial placement (gc_chute_place_random with the card's seed),
 *    each cluster's spheres as atoms of type 1 sharing a molecule ID, integrated as rigid bodies
 *    by fix rigid/small with granucal's mass and inertia tensor (infile bodies.rigid: LAMMPS
 *    would otherwise sum the spheres' moments, which are not the seed's ellipsoid moments of
 *    eq. 2.13); pairs inside a cluster excluded (neigh_modify exclude molecule/intra);
 *  - contacts: pair_style granucal (the plugin) with the card's models and per-pair parameter
 *    files pp.params (particle-particle) and pb.params (particle-bead);
 *  - side walls: fix wall/granucal (the plugin) with the card's models and pw.params
 *    (particle-wall: the wall a plane, R2 = 0, as granucal's side walls).
 * chute-granular.in is the fallback without the plugin: pair_style granular and fix wall/gran
 * with Hertz / Mindlin / Tsuji damping set to the restitution the calibrated model gives at
 * v_ref, labelled as an approximation of the calibrated model.
 * Outputs of the deck: series.txt (t, mean vx, vy, vz, contacts, kinetic energy), comparable
 * with granucal's series.csv, dump files every vtk_interval, a restart file at the end. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/types.h>

#include "chute.h"
#include "chute_io.h"
#include "cli.h"
#include "cli_common.h"
#include "drop_sim.h"
#include "gc_io.h"
#include "provenance.h"
#include "rigid.h"

/* where `make install` puts the plugin (src/Makefile.am) */
#ifndef GC_PLUGIN_PATH
#define GC_PLUGIN_PATH "/usr/local/lib/granucal/granucalplugin.so"
#endif

static void export_usage(FILE *f)
{
  fprintf(f,
          "usage: granucal export lammps [-o DIR] [-s KEY=VALUE]... [--plugin PATH] FILE.chute\n\n"
          "Write a LAMMPS deck of the chute card FILE.chute (granucal-chute(5)) into DIR\n"
          "(default: the card's name with .chute replaced by .lammps): the same bead bottom,\n"
          "the same initial particles (rigid clusters with granucal's mass and inertia), the\n"
          "calibrated contact models through the granucal pair style plugin.\n\n"
          "  -o, --output-dir DIR  directory of the deck (created; existing files replaced)\n"
          "  -s, --set KEY=VALUE   set one key of the card (repeatable)\n"
          "      --state CHECKPOINT  start from a checkpoint of `granucal chute` with this card\n"
          "                        (positions, orientations and velocities; default: granucal's\n"
          "                        random placement with the card's seed)\n"
          "      --plugin PATH     granucalplugin.so for `plugin load` (default: the installed\n"
          "                        one, %s)\n"
          "  -h, --help            this help\n\n"
          "Files: chute.in (plugin deck), chute-granular.in (fallback with LAMMPS's own\n"
          "pair_style granular: an approximation), pp.params, pb.params, pw.params,\n"
          "beads.lmp, "
          "particles.lmp, bodies.rigid, README.\n"
          "Run: lmp -in chute.in, or mpirun -np N lmp -in chute.in.\n\n"
          "Exit status: 0 success, 1 bad input, 2 usage error.\n",
          GC_PLUGIN_PATH);
}

typedef struct {
  const char *dir;
  long nsteps; /* the deck's steps (from a checkpoint: from its time to t_end) */
  char msg[1024];
} xctx;

/* The files of a deck.  The writers open them through this table (xopen) and the output guard
 * reads the same table, so that no file of the deck escapes the guard. */
enum {
  XF_PP,
  XF_PB,
  XF_PW,
  XF_BEADS,
  XF_PARTICLES,
  XF_BODIES,
  XF_DECK,
  XF_DECK_GRANULAR,
  XF_README,
  XF_COUNT
};
static const char *const deck_files[XF_COUNT] = {
  [XF_PP] = "pp.params",
  [XF_PB] = "pb.params",
  [XF_PW] = "pw.params",
  [XF_BEADS] = "beads.lmp",
  [XF_PARTICLES] = "particles.lmp",
  [XF_BODIES] = "bodies.rigid",
  [XF_DECK] = "chute.in",
  [XF_DECK_GRANULAR] = "chute-granular.in",
  [XF_README] = "README",
};

/* Open DIR/(the table's file) atomically. */
static int xopen(xctx *x, gc_outfile *o, int file)
{
  char path[GC_CHUTE_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", x->dir, deck_files[file]);
  return gc_outfile_open(o, path, x->msg, sizeof x->msg);
}

static int xclose(xctx *x, gc_outfile *o)
{
  if (ferror(o->f)) {
    snprintf(x->msg, sizeof x->msg, "%s: write error", o->shown ? o->shown : "output");
    gc_outfile_abort(o);
    return GC_EIO;
  }
  int st = gc_outfile_commit(o, x->msg, sizeof x->msg);
  if (st)
    gc_outfile_abort(o);
  return st;
}

/* A pair's parameter file for the plugin: its parameters with body 2's material, R1/R2 set
 * to the radii of the pair (the plugin takes the atoms' radii). */
static int write_params(xctx *x, int file, const gc_params *p, double R1, double R2,
                        const gc_chute_cfg *cfg, const char *what)
{
  gc_outfile o;
  int st = xopen(x, &o, file);
  if (st)
    return st;
  gc_params q = *p;
  q.R1 = R1;
  q.R2 = R2;
  gc_card_extra e;
  gc_card_extra_default(&e);
  snprintf(e.nfd, sizeof e.nfd, "%s", cfg->nfd->name);
  snprintf(e.tfd, sizeof e.tfd, "%s", cfg->tfd ? cfg->tfd->name : "none");
  fprintf(o.f,
          "# %s contact parameters for the granucal plugin (pair_style granucal, fix\n"
          "# wall/granucal), written by granucal export (granucal-params(5)); R and R2 are "
          "the radii\n# of the pair (R2 = 0: a plane), the plugin uses the atoms' radii.\n",
          what);
  st = gc_card_write(o.f, &q, &e);
  if (st) {
    gc_outfile_abort(&o);
    snprintf(x->msg, sizeof x->msg, "%s/%s: cannot write", x->dir, deck_files[file]);
    return st;
  }
  return xclose(x, &o);
}

/* Restitution of the calibrated law for a pair at the normal speed v (a drop of the reduced
 * mass, velocity Verlet, 2000 steps per contact): what the fallback's Tsuji damping is given.
 * *E_lammps: the one E that LAMMPS's hertz/material (which takes both bodies of one material,
 * E* = E / (2 (1 - nu^2))) needs to give the pair's E* of eq. 3.1, from the law's own E*. */
static int restitution(const gc_chute_cfg *cfg, const gc_params *p, double R1, double R2,
                       double m_eff, double v, double *e, double *E_lammps, char *msg, size_t n)
{
  gc_params q = *p;
  q.R1 = R1;
  q.R2 = R2;
  q.m_eff = m_eff;
  gc_law law;
  int st = gc_law_init_preset(&law, cfg->nfd, NULL, &q, msg, n);
  if (st)
    return st;
  gc_drop_cfg dc = { .mass = m_eff,
                     .g = 0,
                     .dt = 0,
                     .ntcol = 2000,
                     .integrator = GC_INTEGRATOR_VERLET,
                     .max_steps = 0 };
  gc_drop_result r;
  st = gc_drop_run(&law, &dc, v, &r, NULL, NULL);
  if (st) {
    snprintf(msg, n, "restitution of the %s law at %g m/s: %s", cfg->nfd->name, v, gc_strerror(st));
    return st;
  }
  *e = r.e_vel;
  *E_lammps = 2.0 * (1 - q.nu1 * q.nu1) * law.pair.E_star;
  return GC_SUCCESS;
}

/* The masses of the spheres of shape sh as LAMMPS atoms (m[k], sum sh->mass) whose centroid
 * is the particle's centre of mass, the origin of the body axes: fix gravity acts on each atom
 * at its position, so any other centroid would give the body a torque in free fall.  Equal
 * masses when they have it (symmetric shapes); else the equal masses plus the least-squares
 * correction that puts the centroid there (the constraints sum m = M, sum m pos = 0 in the
 * normal equations, a direction along which every sphere sits at 0 left out).  GC_EINVAL if a
 * mass would not be positive. */
static int sphere_masses(const gc_shape *sh, double m[GC_SHAPE_MAX_SPHERES])
{
  const size_t n = sh->nsph;
  double c[3] = { 0, 0, 0 }, ext = sh->bound_radius > 0 ? sh->bound_radius : 1.0;
  for (size_t k = 0; k < n; k++) {
    m[k] = sh->mass / (double)n;
    for (int d = 0; d < 3; d++)
      c[d] += sh->pos[k][d] / (double)n;
  }
  if (fabs(c[0]) + fabs(c[1]) + fabs(c[2]) <= 1e-12 * ext)
    return GC_SUCCESS;
  /* rows of A: 1, x, y, z; m += A^T y with (A A^T) y = b - A m (b = M, 0, 0, 0) */
  double G[4][5] = { { 0 } };
  for (int a = 0; a < 4; a++) {
    for (int b = 0; b < 4; b++)
      for (size_t k = 0; k < n; k++)
        G[a][b] += (a ? sh->pos[k][a - 1] : 1.0) * (b ? sh->pos[k][b - 1] : 1.0);
    double r = a ? 0.0 : sh->mass;
    for (size_t k = 0; k < n; k++)
      r -= (a ? sh->pos[k][a - 1] : 1.0) * m[k];
    G[a][4] = r;
  }
  int used[4] = { 0, 0, 0, 0 };
  double y[4] = { 0, 0, 0, 0 };
  int piv[4];
  for (int col = 0; col < 4; col++) {
    int best = -1;
    for (int a = 0; a < 4; a++)
      if (!used[a] && (best < 0 || fabs(G[a][col]) > fabs(G[best][col])))
        best = a;
    piv[col] = -1;
    /* a direction without extent: its constraint holds for any masses */
    if (fabs(G[best][col]) <= 1e-12 * (col ? ext * ext * (double)n : (double)n))
      continue;
    used[best] = 1;
    piv[col] = best;
    for (int a = 0; a < 4; a++) {
      if (a == best)
        continue;
      const double f = G[a][col] / G[best][col];
      for (int b = col; b < 5; b++)
        G[a][b] -= f * G[best][b];
    }
  }
  for (int col = 0; col < 4; col++)
    if (piv[col] >= 0)
      y[col] = G[piv[col]][4] / G[piv[col]][col];
  for (size_t k = 0; k < n; k++) {
    m[k] += y[0] + y[1] * sh->pos[k][0] + y[2] * sh->pos[k][1] + y[3] * sh->pos[k][2];
    if (!(m[k] > 0))
      return GC_EINVAL;
  }
  return GC_SUCCESS;
}

static int export_lammps(xctx *x, const gc_chute_run *run, gc_chute *c, const char *plugin,
                         int argc, char **argv, const char *card)
{
  const gc_chute_cfg *cfg = &c->cfg;
  const gc_shape *sh = &cfg->shape;
  double rmin = sh->radius[0];
  for (size_t k = 1; k < sh->nsph; k++)
    rmin = fmin(rmin, sh->radius[k]);
  gc_outfile o;
  int st;

  /* pair parameter files */
  if ((st = write_params(x, XF_PP, &cfg->pp, rmin, rmin, cfg, "particle-particle")))
    return st;
  if (c->nbeads > 0 &&
      (st = write_params(x, XF_PB, &cfg->pb, rmin, cfg->bead_radius, cfg, "particle-bead")))
    return st;
  if (cfg->side_walls && (st = write_params(x, XF_PW, &cfg->pw, rmin, 0.0, cfg, "particle-wall")))
    return st;

  /* beads: frozen atoms of type 2, molecule 0 */
  if ((st = xopen(x, &o, XF_BEADS)))
    return st;
  fprintf(o.f, "# %zu bottom beads of radius %.17g m (granucal's bottom, chute_bottom.c)\n",
          c->nbeads, cfg->bead_radius);
  size_t first = c->np * c->nsph;
  for (size_t b = 0; b < c->nbeads; b++) {
    const double *s = c->sx + 3 * (first + b);
    fprintf(o.f, "create_atoms 2 single %.17g %.17g %.17g units box\n", s[0], s[1], s[2]);
  }
  if (c->nbeads > 0)
    fprintf(o.f, "set type 2 diameter %.17g\nset type 2 density 2500\n", 2 * cfg->bead_radius);
  if ((st = xclose(x, &o)))
    return st;

  /* particles: the spheres of each cluster by particle number n (granucal's arrays are in a
   * spatial order that changes), molecule ID = n + 1 */
  if ((st = xopen(x, &o, XF_PARTICLES)))
    return st;
  fprintf(o.f, "# %zu particles of %zu spheres (granucal's state at t = %.9g s)\n", c->np, sh->nsph,
          c->t);
  long id = (long)c->nbeads;
  double msph[GC_SHAPE_MAX_SPHERES];
  if (sphere_masses(sh, msph)) {
    snprintf(x->msg, sizeof x->msg,
             "the cluster's spheres cannot carry its mass with their centroid at its centre "
             "of mass (a sphere would get a mass <= 0)");
    gc_outfile_abort(&o);
    return GC_EINVAL;
  }
  int equal = 1;
  for (size_t k = 1; k < sh->nsph; k++)
    equal &= msph[k] == msph[0];
  for (size_t n = 0; n < c->np; n++) {
    const size_t p = c->index_of[n];
    double M[9];
    gc_quat_to_matrix(c->rot[p].q, M);
    /* the centre wrapped into [0, length), the spheres beside it (a cluster may straddle the
     * period: `remap yes` gives those spheres the image flag, so the body stays whole) */
    double xc = fmod(c->x[3 * p], cfg->length);
    if (xc < 0)
      xc += cfg->length;
    for (size_t k = 0; k < sh->nsph; k++) {
      double s[3];
      for (int d = 0; d < 3; d++)
        s[d] = (d ? c->x[3 * p + d] : xc) + M[3 * d] * sh->pos[k][0] +
               M[3 * d + 1] * sh->pos[k][1] + M[3 * d + 2] * sh->pos[k][2];
      fprintf(o.f, "create_atoms 1 single %.17g %.17g %.17g units box remap yes\n", s[0], s[1],
              s[2]);
      /* create_atoms does not keep the image flag of a remapped atom: set it */
      int img = s[0] < 0 ? -1 : s[0] >= cfg->length ? 1 : 0;
      if (img)
        fprintf(o.f, "set atom %ld image %d 0 0\n", id + 1 + (long)k, img);
    }
    fprintf(o.f, "set atom %ld*%ld mol %zu\n", id + 1, id + (long)sh->nsph, n + 1);
    for (size_t k = 0; k < sh->nsph; k++)
      fprintf(o.f, "set atom %ld diameter %.17g\n", id + 1 + (long)k, 2 * sh->radius[k]);
    if (equal)
      fprintf(o.f, "set atom %ld*%ld mass %.17g\n", id + 1, id + (long)sh->nsph, msph[0]);
    else
      for (size_t k = 0; k < sh->nsph; k++)
        fprintf(o.f, "set atom %ld mass %.17g\n", id + 1 + (long)k, msph[k]);
    id += (long)sh->nsph;
  }
  if ((st = xclose(x, &o)))
    return st;

  /* rigid bodies: granucal's mass and inertia tensor in space axes, I_s = M diag(I) M^T */
  if ((st = xopen(x, &o, XF_BODIES)))
    return st;
  fprintf(o.f,
          "# fix rigid/small infile: id mass xcm ycm zcm ixx iyy izz ixy ixz iyz vxcm vycm "
          "vzcm lx ly lz ixbox iybox izbox\n%zu\n",
          c->np);
  for (size_t n = 0; n < c->np; n++) {
    const size_t p = c->index_of[n];
    double M[9], I[9];
    gc_quat_to_matrix(c->rot[p].q, M);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        double sum = 0;
        for (int k = 0; k < 3; k++)
          sum += M[3 * a + k] * sh->inertia[k] * M[3 * b + k];
        I[3 * a + b] = sum;
      }
    double xc = fmod(c->x[3 * p], cfg->length);
    if (xc < 0)
      xc += cfg->length;
    /* velocity and angular momentum L = M diag(I) w_body (leap-frog half-step values) */
    double L[3];
    for (int a = 0; a < 3; a++) {
      L[a] = 0;
      for (int k = 0; k < 3; k++)
        L[a] += M[3 * a + k] * sh->inertia[k] * c->rot[p].w[k];
    }
    fprintf(o.f,
            "%zu %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
            "%.17g %.17g %.17g %.17g 0 0 0\n",
            n + 1, sh->mass, xc, c->x[3 * p + 1], c->x[3 * p + 2], I[0], I[4], I[8], I[1], I[2],
            I[5], c->v[3 * p], c->v[3 * p + 1], c->v[3 * p + 2], L[0], L[1], L[2]);
  }
  if ((st = xclose(x, &o)))
    return st;

  /* the restitution the calibrated law gives at v_ref, for the approximations */
  double v = run->v_ref, e_pp = 1, e_pw = 1, e_pb = 1, El_pp = 0, El_pw = 0, El_pb = 0;
  double m = sh->mass;
  if ((st = restitution(cfg, &cfg->pp, rmin, rmin, m / 2, v, &e_pp, &El_pp, x->msg, sizeof x->msg)))
    return st;
  if (cfg->side_walls &&
      (st = restitution(cfg, &cfg->pw, rmin, 0, m, v, &e_pw, &El_pw, x->msg, sizeof x->msg)))
    return st;
  if (c->nbeads > 0 && (st = restitution(cfg, &cfg->pb, rmin, cfg->bead_radius, m, v, &e_pb, &El_pb,
                                         x->msg, sizeof x->msg)))
    return st;

  double ymax = fmax(cfg->fill_height * 2.0, 0.05);
  double g = cfg->gravity, a = cfg->angle;
  /* from a checkpoint the deck runs from its time to t_end */
  long nsteps = c->t > 0 ? lround((run->t_end - c->t) / cfg->dt) : run->n_steps;
  if (nsteps < 1) {
    snprintf(x->msg, sizeof x->msg, "t_end = %g s is not after the state's time %g s: set t_end",
             run->t_end, c->t);
    return GC_EINVAL;
  }
  x->nsteps = nsteps;
  long every_series = run->series_interval > 0 ? lround(run->series_interval / cfg->dt) : 1000;
  long every_dump = run->vtk_interval > 0 ? lround(run->vtk_interval / cfg->dt) : 0;
  if (every_series < 1)
    every_series = 1;
  /* ghost cut-off: a whole cluster plus the skin (fix rigid/small needs the body's atoms) */
  double commcut = 2.0 * sh->bound_radius + 2.0 * cfg->skin + 2.0 * rmin;
  const char *inputs[GC_CHUTE_NINPUTS + 1] = { card };
  size_t ninputs = 1 + gc_chute_run_inputs(run, inputs + 1);
  /* the card's models, for pair_style granucal and fix wall/granucal */
  char models[256];
  int rolls = cfg->rolling_model && !(cfg->rolling_model->flags & GC_SUB_NONE);
  int twists = cfg->twisting_model && !(cfg->twisting_model->flags & GC_SUB_NONE);
  snprintf(models, sizeof models, "normal %s tangential %s%s%s%s%s%s", cfg->nfd->name,
           cfg->tfd ? cfg->tfd->name : "none", cfg->keep_history ? " keep_history yes" : "",
           rolls ? " rolling " : "", rolls ? cfg->rolling_model->name : "",
           twists ? " twisting " : "", twists ? cfg->twisting_model->name : "");

  for (int fallback = 0; fallback < 2; fallback++) {
    if ((st = xopen(x, &o, fallback ? XF_DECK_GRANULAR : XF_DECK)))
      return st;
    FILE *f = o.f;
    fprintf(f, "# LAMMPS deck of a granucal chute card, written by `granucal export lammps`.\n");
    gc_provenance_write(f, "# ", argc, argv, inputs, ninputs);
    if (fallback)
      fprintf(f,
              "#\n# FALLBACK WITHOUT THE PLUGIN - AN APPROXIMATION of the calibrated %s/%s "
              "model:\n# LAMMPS's pair_style granular with Hertz normal force, Mindlin tangential "
              "force and\n# Tsuji damping set to the restitution the calibrated model gives at "
              "the normal speed\n# v_ref = %.6g m/s (particle-particle e = %.6f, particle-bead "
              "e = %.6f, particle-wall e = %.6f).\n# The elasto-plastic dependence of e on the "
              "speed, the residual dents and the\n# Vu-Quoc-Zhang tangential stiffness are NOT "
              "reproduced; LAMMPS's Tsuji mapping of e is itself approximate.\n",
              cfg->nfd->name, cfg->tfd ? cfg->tfd->name : "none", v, e_pp, e_pb, e_pw);
    fprintf(f,
            "#\n# %zu particles (%zu spheres each, mass %.6g kg), %zu beads; chute %.6g x %.6g "
            "m (length x width),\n# angle %.6g deg, dt %.6g s, %ld steps (t_end %.6g s).\n",
            c->np, sh->nsph, sh->mass, c->nbeads, cfg->length, cfg->width, a * 180 / M_PI, cfg->dt,
            nsteps, run->t_end);
    if (c->t > 0) /* a checkpoint holds the contacts' histories; a LAMMPS data file does not */
      fprintf(f,
              "# From granucal's state at t = %.9g s: positions, orientations and velocities. "
              "The contacts'\n# histories (plastic dents, tangential springs) are NOT "
              "carried: each contact\n# starts from the law's virgin force at its overlap "
              "(granucal-lammps(7)).\n",
              c->t);
    if (cfg->rolling) /* libgranucal's contact step has no rolling distance (ds_roll) */
      fprintf(f, "# NOT REPRODUCED: the card's rolling correction (rolling = 1, sec. 5.2); LAMMPS "
                 "steps the\n# contacts without it (granucal-lammps(7), LIMITS).\n");
    if (!fallback && access(plugin, R_OK) != 0)
      fprintf(f, "# WARNING: the plugin below was not there when this deck was written: build "
                 "LAMMPS with\n# scripts/build-lammps, then granucal with ./configure "
                 "--with-lammps=DIR and make install,\n# or edit the path; chute-granular.in "
                 "runs without it.\n");
    if (!fallback)
      fprintf(f,
              "# Side walls: fix wall/granucal (the plugin) with the calibrated particle-wall "
              "law (pw.params).\n\nplugin load %s\n",
              plugin);
    /* processors * 1 *: the ranks' domains split the length and the width, never the depth
     * (the flow fills the bottom centimetres of a box whose height holds the initial
     * placement: LAMMPS's own choice gave one of 2 ranks all the particles) */
    fprintf(f,
            "\nunits si\natom_style sphere\natom_modify map array\nprocessors * 1 *\n"
            "boundary p fm %s\nnewton on\ncomm_modify vel yes cutoff %.17g\n"
            "fix mol all property/atom mol ghost yes\n",
            cfg->side_walls ? "f" : "p", commcut);
    fprintf(f,
            "region box block 0 %.17g %.17g %.17g 0 %.17g units box\n"
            "create_box 2 box\n",
            cfg->length, -cfg->bead_radius - 1e-3, ymax, cfg->width);
    fprintf(f, "include beads.lmp\ninclude particles.lmp\n"
               "group beads type 2\ngroup grains type 1\n");
    /* limit_damping: LAMMPS's dashpot then does not pull, as granucal's normal force does not
     * (tension 0, each law's default) */
    const char *ld_pp = cfg->pp.tension ? "" : " limit_damping";
    const char *ld_pb = cfg->pb.tension ? "" : " limit_damping";
    const char *ld_pw = cfg->pw.tension ? "" : " limit_damping";
    if (fallback) {
      fprintf(f,
              "pair_style granular\n"
              "pair_coeff 1 1 hertz/material %.17g %.6f %.6g tangential mindlin NULL 1.0 %.6g "
              "damping tsuji%s\n",
              El_pp, e_pp, cfg->pp.nu1, cfg->pp.mu, ld_pp);
      if (c->nbeads > 0)
        fprintf(f,
                "pair_coeff 1 2 hertz/material %.17g %.6f %.6g tangential mindlin NULL 1.0 %.6g "
                "damping tsuji%s\npair_coeff 2 2 hertz/material %.17g 0.5 0.3 tangential "
                "linear_nohistory 0 0 damping tsuji\n",
                El_pb, e_pb, cfg->pb.nu1, cfg->pb.mu, ld_pb, El_pb);
    } else {
      fprintf(f, "pair_style granucal %s\npair_coeff 1 1 pp.params\n", models);
      if (c->nbeads > 0)
        fprintf(f, "pair_coeff 1 2 pb.params\npair_coeff 2 2 pb.params\n");
    }
    fprintf(f,
            "neighbor %.17g bin\nneigh_modify every 1 delay 0 check yes exclude "
            "molecule/intra grains\n",
            cfg->skin);
    if (c->nbeads > 0)
      fprintf(f, "neigh_modify exclude type 2 2\n");
    fprintf(f, "fix grav grains gravity %.17g vector %.17g %.17g 0\n", g, sin(a), -cos(a));
    if (cfg->side_walls && fallback)
      fprintf(f,
              "fix walls grains wall/gran granular hertz/material %.17g %.6f %.6g tangential "
              "mindlin NULL 1.0 %.6g damping tsuji%s zplane 0 %.17g\n",
              El_pw, e_pw, cfg->pw.nu1, cfg->pw.mu, ld_pw, cfg->width);
    else if (cfg->side_walls)
      fprintf(f, "fix walls grains wall/granucal pw.params %s zplane 0 %.17g\n", models,
              cfg->width);
    if (c->nbeads > 0)
      fprintf(f, "fix freeze beads freeze\n");
    fprintf(f,
            "fix rigid grains rigid/small molecule infile bodies.rigid\n"
            "timestep %.17g\n\n",
            cfg->dt);
    fprintf(f,
            "# outputs: series.txt (t, mean velocity of the sphere atoms = of the clusters, "
            "contacts, kinetic energy of the bodies)\n"
            "variable t equal time+%.17g\n"
            "compute vx grains reduce ave vx\ncompute vy grains reduce ave vy\n"
            "compute vz grains reduce ave vz\n"
            "compute nc grains contact/atom\ncompute ncs grains reduce sum c_nc\n"
            "variable contacts equal c_ncs\n"
            "compute ke grains ke\nvariable ekin equal c_ke\n"
            "fix series all print %ld \"${t} $(c_vx:%%.9g) $(c_vy:%%.9g) $(c_vz:%%.9g) "
            "${contacts} $(v_ekin:%%.9g)\" file series.txt screen no title \"# t [s] vx vy vz "
            "[m/s] sphere-contacts(counted per sphere) E_kin(sphere atoms) [J]\"\n",
            c->t, every_series);
    if (every_dump > 0)
      fprintf(f, "dump snap all custom %ld dump.*.txt id mol type radius x y z vx vy vz\n",
              every_dump);
    /* `run 0` before write_restart: LAMMPS 29 Sep 2021 writes the neighbour history of a
     * granular style with stale ghost counts when write_restart has to move atoms (LAMMPS issue
     * #3022, a segmentation fault here after 10000 steps of the 1200-soybean chute); a fresh
     * neighbour build first leaves nothing to move */
    fprintf(f,
            "thermo_style custom step time c_vx v_contacts\nthermo %ld\n"
            "run %ld\n"
            "# run 0: works around LAMMPS issue #3022 (history of granular styles in "
            "write_restart)\nrun 0 post no\nwrite_restart chute.restart\n",
            every_series * 10, nsteps);
    if ((st = xclose(x, &o)))
      return st;
  }

  if ((st = xopen(x, &o, XF_README)))
    return st;
  fprintf(o.f,
          "LAMMPS deck of a granucal chute card (granucal export lammps)\n\n"
          "  lmp -in chute.in                      one process\n"
          "  mpirun -np 4 lmp -in chute.in         4 MPI ranks (domain decomposition)\n"
          "  lmp -in chute-granular.in             without the granucal plugin (approximation)\n\n"
          "chute.in needs a LAMMPS with the PLUGIN, GRANULAR and RIGID packages "
          "(scripts/build-lammps)\n"
          "and the plugin %s.\n"
          "series.txt: t, mean vx, vy, vz [m/s], contacts (per sphere, so each pair twice), "
          "E_kin.\n"
          "A restart file chute.restart is written at the end; see granucal-guide(7), section\n"
          "LAMMPS, for partitioning and restarts.\n",
          plugin);
  return xclose(x, &o);
}

int gc_cmd_export(int argc, char **argv)
{
  const char *prog = "granucal export";
  /* the command line as typed, for the decks' provenance (argv is shifted and permuted below) */
  int argc_typed = argc;
  char *cmdline[argc + 1];
  memcpy(cmdline, argv, (size_t)(argc + 1) * sizeof *argv);
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    export_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "lammps") != 0) {
    gc_suggest sg;
    gc_suggest_init(&sg, argv[1]);
    gc_suggest_add(&sg, "lammps");
    char dym[96];
    fprintf(stderr, "%s: unknown target '%s'%s (the one target is lammps)\n", prog, argv[1],
            gc_suggest_text(&sg, dym, sizeof dym));
    return 2;
  }
  argc--;
  argv++;
  static const struct option opts[] = { { "output-dir", required_argument, 0, 'o' },
                                        { "set", required_argument, 0, 's' },
                                        { "plugin", required_argument, 0, 'P' },
                                        { "state", required_argument, 0, 'S' },
                                        { "help", no_argument, 0, 'h' },
                                        { 0, 0, 0, 0 } };
  const char *dir = NULL, *plugin = GC_PLUGIN_PATH, *state = NULL;
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  size_t nsets = 0;
  if (!sets)
    return 1;
  int ch;
  optind = 1;
  opterr = 0;
  gc_cli_law_argbuf lawbuf; /* --normal NAME ... as --set normal=NAME (cli_common.h) */
  argc = gc_cli_law_args(argc, argv, opts, &lawbuf);
  while ((ch = getopt_long(argc, argv, ":o:s:h", opts, NULL)) != -1) {
    switch (ch) {
    case 'o': dir = optarg; break;
    case 's': sets[nsets++] = optarg; break;
    case 'P': plugin = optarg; break;
    case 'S': state = optarg; break;
    case 'h':
      export_usage(stdout);
      free(sets);
      return 0;
    default: /* ':' (missing value) or '?' (unknown option) */
      free(sets);
      return gc_cli_bad_option(prog, ch, argc, argv, optind, opts);
    }
  }
  if (gc_cli_sets_check(prog, sets, nsets, argc, argv, optind)) {
    free(sets);
    return 2;
  }
  if (optind != argc - 1) {
    fprintf(stderr, "%s lammps: one chute card expected (see -h)\n", prog);
    free(sets);
    return 2;
  }
  const char *card = argv[optind];
  char *defdir = NULL;
  if (!dir && !(dir = defdir = gc_cli_default_dir(card, ".lammps"))) {
    free(sets);
    return 1;
  }
  gc_chute_run *run = calloc(1, sizeof *run);
  char msg[1024];
  int rc = 1;
  gc_chute *c = NULL;
  gc_dirlock lock = GC_DIRLOCK_INIT;
  if (!run)
    goto out;
  if (gc_chute_run_load(card, sets, nsets, run, msg, sizeof msg)) {
    fprintf(stderr, "%s: %s\n", prog, msg);
    goto out;
  }
  if (gc_chute_alloc(&c, &run->sim, msg, sizeof msg) ||
      (state ? gc_chute_checkpoint_read(c, state, msg, sizeof msg)
             : gc_chute_place_random(c, msg, sizeof msg))) {
    fprintf(stderr, "%s: %s: %s\n", prog, state ? state : card, msg);
    goto out;
  }
  {
    /* no file of the deck may be an input (the card, the files it names, the state) */
    gc_outplan plan;
    gc_outplan_init(&plan);
    gc_outplan_dir(&plan, dir);
    for (int i = 0; i < XF_COUNT; i++)
      gc_outplan_dir_file(&plan, dir, deck_files[i], NULL);
    gc_outplan_input(&plan, card, -1);
    const char *ins[GC_CHUTE_NINPUTS];
    size_t nin = gc_chute_run_inputs(run, ins);
    for (size_t i = 0; i < nin; i++)
      gc_outplan_input(&plan, ins[i], -1);
    gc_outplan_input(&plan, state, -1);
    int clash = gc_cli_outplan_check(prog, &plan);
    gc_outplan_free(&plan);
    if (clash)
      goto out;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "%s: cannot create %s: %s\n", prog, dir, strerror(errno));
    goto out;
  }
  /* one writer at a time in a deck directory */
  if (gc_cli_dirlock(prog, &lock, dir))
    goto out;
  gc_signals_install();
  xctx x = { .dir = dir };
  if (export_lammps(&x, run, c, plugin, argc_typed, cmdline, card)) {
    fprintf(stderr, "%s: %s\n", prog, x.msg);
    goto out;
  }
  fprintf(stderr, "%s: wrote %s/chute.in (%zu particles, %zu beads, %ld steps of %.3g s)\n", prog,
          dir, c->np, c->nbeads, x.nsteps, run->sim.dt);
  if (access(plugin, R_OK) != 0)
    fprintf(stderr,
            "%s: warning: chute.in loads the plugin %s, which is not there (%s).\n"
            "  Build LAMMPS with scripts/build-lammps, then granucal with ./configure "
            "--with-lammps=DIR and make install;\n  or give --plugin PATH.  "
            "chute-granular.in runs without the plugin (an approximation).\n",
            prog, plugin, strerror(errno));
  rc = 0;
out:
  gc_dirlock_release(&lock);
  gc_chute_free(c);
  free(run);
  free(sets);
  free(defdir);
  return rc;
}
