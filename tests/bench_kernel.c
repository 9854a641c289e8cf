/* bench_kernel.c - a purpose-built step of bench-chute's matched case: what this machine gives
 * that case's work when a code does nothing else (the measure of how far granucal's step is
 * from the fastest step of the same physics).  Not granucal's step and not a test:
 * scripts/bench-chute runs it next to granucal and LAMMPS on the same input.
 *
 * It reads the LAMMPS input that bench-chute writes (and the data file that input names) and
 * steps the same physics as LAMMPS 2022's pair_style granular (hertz, damping tsuji, tangential
 * mindlin, xt; no limit_damping), fix wall/gran granular zplane (the nearer wall only, as
 * LAMMPS), fix gravity, fix nve/sphere (velocity Verlet) on type 1, type 2 frozen beads
 * (their pairs excluded), periodic x, a half Verlet list with LAMMPS's skin and its
 * rebuild trigger (a sphere moved more than half the skin) and the pairs' histories carried
 * over a rebuild.  Left out: everything granucal does besides (clusters, the energy ledger
 * but with -g / -G / -F below, sums independent of the thread count, checks of the numbers,
 * output), and threads.
 *
 * Its speed comes from the layout of the pair forces, in passes over the touching pairs:
 * (A) the listed pairs' overlap test without a branch (the touching ones gathered, the
 * others' histories cleared by a product), (B) their numbers gathered into rows, (C) the force
 * law in one loop over the rows that the compiler vectorises, (D) the sums scattered.  The
 * rows come from one block in which each starts 192 bytes further into a 4 KiB page than the
 * one before: rows allocated one by one all begin at the same offset in a page, the processor
 * takes the loads of one row for stores to another (4K aliasing), and the step takes 1.75x as
 * long; with the histories of the pairs apart cleared behind a branch, which goes either way
 * at random, 1.28x.
 *
 * With -g the same passes step granucal's Hertz-Mindlin law instead: its chute's contact
 * geometry (the contact point at r - alpha / 2 from each centre), the law's loop itself
 * (gc_hm_rows_step of libgcmodels, the one granucal's contacts go through), its record of 12
 * numbers per pair instead of LAMMPS's 3, and its energy ledger (the work each contact
 * absorbs, the work of gravity); the same material, with the constants of each LAMMPS law
 * (glaw_of), but not LAMMPS's numbers (the same with friction 0 and limit_damping).  -G keeps
 * of the record only the 5 numbers the motion and the ledger depend on (the force Q, and P and
 * alpha of the last step for the work; the other 7 are the record's bookkeeping), and moves
 * the same to the bit.  -F is -G with pass C fused: the geometry, the law (gc_hm_step of
 * hm_step.h, the body of gc_hm_rows_step's loop) and the torques in one loop, the bookkeeping
 * not computed; the same motion again.  -N is -F without the energy ledger (the work of the
 * contacts and of gravity not booked, and so P and alpha of the last step not kept: a history
 * of Q alone, 3 numbers per pair, LAMMPS's count), the same motion once more: the ledger is
 * granucal's, LAMMPS does not compute it.  These measure what granucal's own physics gives in
 * this layout: how much of the kernel's lead over granucal the layout can win back.
 *
 * usage: bench_kernel [-g | -G | -F | -N] LAMMPS_INPUT STEPS
 * Prints one line: steps, spheres, seconds, sphere-steps/s, the contacts (counted as LAMMPS's
 * compute contact/atom summed over type 1: sphere-sphere pairs twice, sphere-bead once) and
 * the kinetic energy of translation (LAMMPS's thermo ke) before and after, and the list
 * builds; with -g, -G or -F two more (-N: none): the energy balance (the kinetic energy of
 * translation and rotation against the work of gravity less the work the contacts absorbed;
 * the walls' work is not booked) and the ledger.  Exit status 0, 1 on a bad input file or a
 * non-finite contact force, 2 on a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gc_model.h"
#include "hm_step.h"

/* one law of the input: pair_coeff or wall/gran, "hertz K E tangential mindlin KT XT MU
 * damping tsuji" */
typedef struct {
  double kn, damp, kt, xt, mu; /* damp: Tsuji's coefficient, LAMMPS's fit to the restitution */
  double limit;                /* 1.0: limit_damping (the normal force does not pull), else 0 */
  int set;
} law;

/* -g: a pair's constants in granucal's Hertz-Mindlin law (gc_pair: R*, k_hertz, E*, kt0_c,
 * tsuji_c; mu), from the LAMMPS law of the same pair (glaw_of) */
typedef struct {
  double R_star, k_hertz, E_star, kt0_c, tsuji_c, mu;
} glaw;

typedef struct {
  char data[4096];
  law pp, pb, wall; /* sphere-sphere, sphere-bead, sphere-wall */
  int gmode;        /* -g (1), -G (2), -F (3), -N (4): granucal's law (-N: no ledger) */
  glaw gpp, gpb;
  double skin, dt, g[3], zlo, zhi;
  int have_skin, have_dt, have_g, have_wall, have_flow, have_beads;
  int have_si, have_freeze, have_nve, have_exclude; /* what the kernel assumes, present */
} deck;

typedef struct {
  size_t n, nflow;
  double lx, ylo, yhi, zlo, zhi;
  double *x, *v, *w, *f, *t, *r, *m;
  int *type;
} atoms;

enum {
  D0,
  D1,
  D2,
  VR0,
  VR1,
  VR2,
  WR0,
  WR1,
  WR2,
  H0,
  H1,
  H2,
  RI,
  RJ,
  ME,
  BD,
  F0,
  F1,
  F2,
  TQ0,
  TQ1,
  TQ2,
  NROWS_LAMMPS,
  /* -g: the angular velocities of i (in WR0..2) and j, the torque on j (on i in TQ0..2),
        * then gc_hm_rows_step's rows from G0 on, in its order (GC_HM_*) */
  WJ0 = NROWS_LAMMPS,
  WJ1,
  WJ2,
  TJ0,
  TJ1,
  TJ2,
  G0,
  NROWS = G0 + GC_HM_NROWS
};
/* -g: gc_hm_rows_step's rows by short names */
enum {
  GAL = G0 + GC_HM_ALPHA,
  GN0 = G0 + GC_HM_N0,
  GV0 = G0 + GC_HM_VREL0,
  GRS = G0 + GC_HM_R_STAR,
  GKH = G0 + GC_HM_K_HERTZ,
  GES = G0 + GC_HM_E_STAR,
  GKT = G0 + GC_HM_KT0_C,
  GTC = G0 + GC_HM_TSUJI_C,
  GMU = G0 + GC_HM_MU,
  GTN = G0 + GC_HM_TENSION,
  GQ0 = G0 + GC_HM_Q0,
  HA = G0 + GC_HM_A,
  HP = G0 + GC_HM_P,
  HPM = G0 + GC_HM_P_MAX,
  HAM = G0 + GC_HM_ALPHA_MAX,
  HTQ = G0 + GC_HM_TQ,
  HQS = G0 + GC_HM_Q_STAR,
  HDL = G0 + GC_HM_DELTA,
  HQD = G0 + GC_HM_Q_DIR,
  HNS = G0 + GC_HM_N_STEPS,
  GQN0 = G0 + GC_HM_QN0,
  GF0 = G0 + GC_HM_F0,
  GW0 = G0 + GC_HM_WORK_N,
  GW1 = G0 + GC_HM_WORK_T,
  GOK = G0 + GC_HM_OK
};
_Static_assert(NROWS_LAMMPS == 22 && HNS - HPM == 6, "rows");
/* -g: the history of a pair, in this order: the tangential force Q (3), P, alpha of the last
 * step (GHW_MOTION: all that the force and the work depend on), then the record's rest, P_max,
 * alpha_max, the TFD scalars tQ, Q_star, delta, q_dir, n_steps (gc_hm_rows; -G and -F keep
 * only the first GHW_MOTION, -N only Q) */
enum {
  GH_Q0,
  GH_Q1,
  GH_Q2,
  GH_P,
  GH_A,
  GHW_MOTION,
  GH_PM = GHW_MOTION,
  GH_AM,
  GH_TQ,
  GH_QS,
  GH_DL,
  GH_QD,
  GH_NS,
  GHW
};

/* The half list (pairs i < j, not both beads) with each pair's x shift of j and its tangential
 * history, the wall histories, and the rows of the pair passes. */
typedef struct {
  size_t cap;
  size_t *start; /* pairs of i: start[i] .. start[i + 1] - 1 */
  int32_t *pj, *pj_old;
  double *psx, *hist, *hist_old;
  unsigned char *pbd; /* 1 for a sphere-bead pair (the ledger's kind of a separation) */
  size_t *start_old;
  double *x0;         /* positions at the build */
  double *whist;      /* 3 per sphere */
  int32_t *ci, *ck;   /* touching pairs: sphere i, pair k */
  double *row[NROWS]; /* the rows of passes B-D (NROWS_LAMMPS of them for LAMMPS's law) */
  size_t stride;      /* row q + 1 starts stride doubles after row q */
  void *block;
  int32_t *head, *next;
  size_t ncell_cap;
  long builds;
  size_t hw; /* history per pair: 3 (LAMMPS's, -N), GHW (-g), GHW_MOTION (-G, -F) */
  /* -g: granucal's energy ledger (its chute's CEN_*): the work the contacts absorbed, normal
   * and tangential, sphere-sphere and sphere-bead (the unloading at a separation with the
   * normal), the work of gravity on the flow; pairs whose law step was not finite */
  double wn_pp, wt_pp, wn_pb, wt_pb, w_grav;
  long bad;
} lists;

static int fail(const char *file, long line, const char *what)
{
  if (line > 0)
    fprintf(stderr, "bench_kernel: %s:%ld: %s\n", file, line, what);
  else
    fprintf(stderr, "bench_kernel: %s: %s\n", file, what);
  return 1;
}

/* a whole token as a finite number: 0, else -1 */
static int number(const char *s, double *out)
{
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return *end || errno || !isfinite(*out) ? -1 : 0;
}

/* MathSpecial::powint of LAMMPS (math_special.h): x^n by squaring, for the same roundings */
static double powint(double x, int n)
{
  double yy = 1.0, ww = x;
  if (x == 0.0)
    return 0.0;
  for (int nn = n > 0 ? n : -n; nn != 0; nn >>= 1, ww *= ww)
    if (nn & 1)
      yy *= ww;
  return n > 0 ? yy : 1.0 / yy;
}

/* Tsuji's damping coefficient from the restitution e: LAMMPS's fit, in its operations
 * (pair_granular.cpp with square, cube and powint; fix_wall_gran.cpp with pow) */
static double tsuji_coefficient(double e, int wall)
{
  if (wall)
    return 1.2728 - 4.2783 * e + 11.087 * pow(e, 2) - 22.348 * pow(e, 3) + 27.467 * pow(e, 4) -
           18.022 * pow(e, 5) + 4.8218 * pow(e, 6);
  return 1.2728 - 4.2783 * e + 11.087 * (e * e) - 22.348 * (e * e * e) + 27.467 * powint(e, 4) -
         18.022 * powint(e, 5) + 4.8218 * powint(e, 6);
}

static int parse_law(char **tok, int ntok, law *lw, int wall)
{
  /* hertz K E tangential mindlin KT XT MU damping tsuji [limit_damping] */
  const int limit = ntok == 11 && !strcmp(tok[10], "limit_damping");
  if (ntok != 10 + limit || strcmp(tok[0], "hertz") || strcmp(tok[3], "tangential") ||
      strcmp(tok[4], "mindlin") || strcmp(tok[8], "damping") || strcmp(tok[9], "tsuji"))
    return -1;
  double v[5];
  const int at[5] = { 1, 2, 5, 6, 7 };
  for (int a = 0; a < 5; a++)
    if (number(tok[at[a]], &v[a]) || v[a] < 0)
      return -1;
  const double e = v[1];
  if (!(e > 0 && e <= 1) || !(v[0] > 0) || !(v[2] > 0))
    return -1;
  lw->kn = v[0];
  lw->damp = tsuji_coefficient(e, wall);
  lw->kt = v[2];
  lw->xt = v[3];
  lw->mu = v[4];
  lw->limit = limit ? 1.0 : 0.0;
  lw->set = 1;
  return 0;
}

/* Calls line_fn(ctx, path, line number, line) for each line of file path, up to the first
 * that returns nonzero; returns that status, or 1 when the file cannot be read. */
static int each_line(const char *path, int (*line_fn)(void *, const char *, long, char *),
                     void *ctx)
{
  FILE *fp = fopen(path, "r");
  if (!fp)
    return fail(path, 0, strerror(errno));
  char line[1024];
  long ln = 0;
  int st = 0;
  while (!st && fgets(line, sizeof line, fp)) {
    ln++;
    if (!strchr(line, '\n') && !feof(fp))
      st = fail(path, ln, "a line longer than 1022 characters");
    else
      st = line_fn(ctx, path, ln, line);
  }
  fclose(fp);
  return st;
}

/* one line of the LAMMPS input into the deck ctx */
static int deck_line(void *ctx, const char *path, long ln, char *line)
{
  deck *d = ctx;
  int st = 0;
  char *tok[40], *save = NULL;
  int nt = 0;
  char *hash = strchr(line, '#'); /* a comment, as LAMMPS reads one (no quotes here) */
  if (hash)
    *hash = '\0';
  for (char *s = strtok_r(line, " \t\r\n", &save); s && nt < 40;
       s = strtok_r(NULL, " \t\r\n", &save))
    tok[nt++] = s;
  if (nt == 0)
    return 0;
  if (!strcmp(tok[0], "read_data") && nt == 2) {
    if (strlen(tok[1]) >= sizeof d->data)
      st = fail(path, ln, "read_data: path too long");
    else
      strcpy(d->data, tok[1]);
  } else if (!strcmp(tok[0], "pair_coeff")) {
    law lw;
    if (nt < 3 || parse_law(tok + 3, nt - 3, &lw, 0))
      st = fail(path, ln,
                "pair_coeff: expected I J hertz K E tangential mindlin KT XT MU "
                "damping tsuji [limit_damping] with K, KT > 0 and 0 < E <= 1");
    else if (!strcmp(tok[1], "1") && !strcmp(tok[2], "1"))
      d->pp = lw;
    else if (!strcmp(tok[1], "1") && !strcmp(tok[2], "2"))
      d->pb = lw;
    /* 2 2: excluded (frozen beads) */
  } else if (!strcmp(tok[0], "neighbor") && nt == 3 && !strcmp(tok[2], "bin")) {
    if (number(tok[1], &d->skin) || !(d->skin > 0))
      st = fail(path, ln, "neighbor: the skin must be a number > 0");
    d->have_skin = 1;
  } else if (!strcmp(tok[0], "timestep") && nt == 2) {
    if (number(tok[1], &d->dt) || !(d->dt > 0))
      st = fail(path, ln, "timestep: must be a number > 0");
    d->have_dt = 1;
  } else if (!strcmp(tok[0], "group") && nt == 4 && !strcmp(tok[2], "type")) {
    if (!strcmp(tok[1], "flow") && !strcmp(tok[3], "1"))
      d->have_flow = 1;
    else if (!strcmp(tok[1], "beads") && !strcmp(tok[3], "2"))
      d->have_beads = 1;
  } else if (!strcmp(tok[0], "units") && nt == 2) {
    d->have_si = !strcmp(tok[1], "si");
  } else if (!strcmp(tok[0], "fix") && nt == 4 && !strcmp(tok[2], "beads") &&
             !strcmp(tok[3], "freeze")) {
    d->have_freeze = 1;
  } else if (!strcmp(tok[0], "fix") && nt == 4 && !strcmp(tok[2], "flow") &&
             !strcmp(tok[3], "nve/sphere")) {
    d->have_nve = 1;
  } else if (!strcmp(tok[0], "neigh_modify")) {
    for (int k = 1; k + 3 < nt; k++)
      if (!strcmp(tok[k], "exclude") && !strcmp(tok[k + 1], "type") && !strcmp(tok[k + 2], "2") &&
          !strcmp(tok[k + 3], "2"))
        d->have_exclude = 1;
  } else if (!strcmp(tok[0], "fix") && nt >= 4 && !strcmp(tok[3], "gravity")) {
    double gm, u[3];
    if (nt != 9 || strcmp(tok[2], "flow") || strcmp(tok[5], "vector") || number(tok[4], &gm) ||
        number(tok[6], u) || number(tok[7], u + 1) || number(tok[8], u + 2)) {
      st = fail(path, ln, "fix gravity: expected fix ID flow gravity G vector X Y Z");
    } else {
      const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      if (!(len > 0))
        st = fail(path, ln, "fix gravity: the vector has no length");
      for (int a = 0; a < 3 && !st; a++)
        d->g[a] =
            gm * (u[a] / len); /* LAMMPS: the unit vector, then the magnitude (fix_gravity.cpp) */
      d->have_g = 1;
    }
  } else if (!strcmp(tok[0], "fix") && nt >= 4 && !strcmp(tok[3], "wall/gran")) {
    const int nl = nt == 19 ? 11 : 10; /* the law's tokens: with limit_damping 11 */
    if ((nt != 18 && nt != 19) || strcmp(tok[2], "flow") || strcmp(tok[4], "granular") ||
        parse_law(tok + 5, nl, &d->wall, 1) || strcmp(tok[5 + nl], "zplane") ||
        number(tok[6 + nl], &d->zlo) || number(tok[7 + nl], &d->zhi) || !(d->zhi > d->zlo))
      st = fail(path, ln,
                "fix wall/gran: expected fix ID flow wall/gran granular hertz K E "
                "tangential mindlin KT XT MU damping tsuji [limit_damping] zplane LO "
                "HI");
    d->have_wall = 1;
  }
  return st;
}

/* the deck of LAMMPS input path into d (zeroed by the caller) */
static int read_deck(const char *path, deck *d)
{
  int st = each_line(path, deck_line, d);
  if (st)
    return st;
  if (!d->data[0] || !d->pp.set || !d->pb.set || !d->have_skin || !d->have_dt || !d->have_g ||
      !d->have_wall || !d->have_flow || !d->have_beads || !d->have_si || !d->have_freeze ||
      !d->have_nve || !d->have_exclude)
    return fail(path, 0,
                "not bench-chute's matched case: it needs units si, read_data, "
                "pair_coeff 1 1 and 1 2, neighbor, neigh_modify exclude type 2 2, "
                "timestep, groups flow (type 1) and beads (type 2), fix beads freeze, "
                "fix flow nve/sphere, fix gravity and fix wall/gran zplane");
  return 0;
}

/* the data file's reader: the atoms, the section (1 Atoms, 2 Velocities), the lines read of each
 * and which atoms they gave */
typedef struct {
  atoms *a;
  int mode;
  size_t got[3];
  unsigned char *seen[3];
} data_reader;

/* one line of the data file into the reader ctx */
static int data_line(void *ctx, const char *path, long ln, char *line)
{
  data_reader *r = ctx;
  atoms *a = r->a;
  if (ln == 1) /* the title, which LAMMPS skips */
    return 0;
  double p, q;
  unsigned long nat;
  if (!a->n && sscanf(line, "%lu atoms", &nat) == 1 && strstr(line, "atoms")) {
    if (nat == 0 || nat > 10000000) /* 64 pairs each: pair numbers fit an int32 */
      return fail(path, ln, "the number of atoms must be 1 .. 1e7");
    a->n = nat;
    a->x = calloc(3 * nat, sizeof *a->x), a->v = calloc(3 * nat, sizeof *a->v);
    a->w = calloc(3 * nat, sizeof *a->w), a->f = calloc(3 * nat, sizeof *a->f);
    a->t = calloc(3 * nat, sizeof *a->t), a->r = calloc(nat, sizeof *a->r);
    a->m = calloc(nat, sizeof *a->m), a->type = calloc(nat, sizeof *a->type);
    r->seen[1] = calloc(nat, 1), r->seen[2] = calloc(nat, 1);
    if (!a->x || !a->v || !a->w || !a->f || !a->t || !a->r || !a->m || !a->type || !r->seen[1] ||
        !r->seen[2])
      return fail(path, ln, "out of memory");
    return 0;
  }
  if (strstr(line, "xlo xhi") && sscanf(line, "%lf %lf", &p, &q) == 2) {
    a->lx = q - p;
    return 0;
  }
  if (strstr(line, "zlo zhi") && sscanf(line, "%lf %lf", &p, &q) == 2) {
    a->zlo = p, a->zhi = q;
    return 0;
  }
  if (!strncmp(line, "Atoms", 5)) {
    r->mode = 1;
    return 0;
  }
  if (!strncmp(line, "Velocities", 10)) {
    r->mode = 2;
    return 0;
  }
  if (r->mode == 0 || strspn(line, " \t\r\n") == strlen(line))
    return 0;
  if (!a->n)
    return fail(path, ln, "a section before the number of atoms");
  unsigned long id;
  int type, nf;
  double u[6];
  if (r->mode == 1)
    nf = sscanf(line, "%lu %d %lf %lf %lf %lf %lf", &id, &type, u, u + 1, u + 2, u + 3, u + 4);
  else
    nf = sscanf(line, "%lu %lf %lf %lf %lf %lf %lf", &id, u, u + 1, u + 2, u + 3, u + 4, u + 5);
  if (nf != 7 || id < 1 || id > a->n || r->seen[r->mode][id - 1])
    return fail(path, ln,
                r->mode == 1 ? "expected: id type diameter density x y z (ids 1 .. N, once)"
                             : "expected: id vx vy vz wx wy wz (ids 1 .. N, once)");
  for (int e = 0; e < (r->mode == 1 ? 5 : 6); e++)
    if (!isfinite(u[e]))
      return fail(path, ln, "a number is not finite");
  const size_t i = id - 1;
  r->seen[r->mode][i] = 1;
  r->got[r->mode]++;
  if (r->mode == 1) {
    if ((type != 1 && type != 2) || !(u[0] > 0) || !(u[1] > 0))
      return fail(path, ln, "type must be 1 or 2, diameter and density > 0");
    a->type[i] = type;
    a->r[i] = 0.5 * u[0];
    /* LAMMPS's mass of a sphere (atom_vec_sphere.cpp), in its order */
    a->m[i] = 4.0 * 3.14159265358979323846 / 3.0 * a->r[i] * a->r[i] * a->r[i] * u[1];
    for (int e = 0; e < 3; e++)
      a->x[3 * i + e] = u[2 + e];
    a->nflow += type == 1;
  } else {
    for (int e = 0; e < 3; e++)
      a->v[3 * i + e] = u[e], a->w[3 * i + e] = u[3 + e];
  }
  return 0;
}

/* the atoms of data file path into a (zeroed by the caller) */
static int read_atoms(const char *path, atoms *a)
{
  data_reader r = { .a = a };
  int st = each_line(path, data_line, &r);
  free(r.seen[1]);
  free(r.seen[2]);
  if (!st && (!a->n || r.got[1] != a->n || r.got[2] != a->n || !(a->lx > 0)))
    st = fail(path, 0, "needs N atoms, xlo xhi, and N lines in Atoms and in Velocities");
  return st;
}

static void cell_index(const atoms *a, const double *x, double cs, const int nc[3], int c[3])
{
  double u[3] = { x[0] / a->lx * nc[0], (x[1] - a->ylo) / cs, (x[2] - a->zlo) / cs };
  for (int e = 0; e < 3; e++) {
    int k = (int)floor(u[e]);
    c[e] = k < 0 ? 0 : k >= nc[e] ? nc[e] - 1 : k;
  }
}

/* d = x_i - x_j of listed pair k of the sphere at xi (x_j's periodic image, LAMMPS's sign);
 * |d|^2.  xi a copy in the overlap pass, where loads of a->x would be repeated for every pair
 * (the histories' stores might change them: seen 1.03-1.04x the step's time) */
static inline double pair_sep(const atoms *a, const lists *L, const double xi[3], size_t k,
                              double d[3])
{
  const size_t j = (size_t)L->pj[k];
  d[0] = xi[0] - (a->x[3 * j] + L->psx[k]);
  d[1] = xi[1] - a->x[3 * j + 1];
  d[2] = xi[2] - a->x[3 * j + 2];
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* wraps x into [0, lx), then the half list within r_i + r_j + skin, histories carried over */
static int build(atoms *a, lists *L, double skin)
{
  const size_t n = a->n;
  double rmax = 0;
  a->ylo = INFINITY, a->yhi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    double *x = a->x + 3 * i;
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
      return fail("bench_kernel", 0, "a position is not finite: the run blew up");
    x[0] -= a->lx * floor(x[0] / a->lx);
    if (x[0] >= a->lx)
      x[0] = 0.0;
    a->ylo = fmin(a->ylo, x[1]), a->yhi = fmax(a->yhi, x[1]);
    rmax = fmax(rmax, a->r[i]);
  }
  const double cs = 2 * rmax + skin;
  const double span[3] = { a->lx / cs, (a->yhi - a->ylo) / cs + 1, (a->zhi - a->zlo) / cs + 1 };
  if (!(span[0] >= 3))
    return fail("bench_kernel", 0, "the periodic length is below three cells");
  if (!(span[0] * span[1] * span[2] <= 1e8))
    return fail("bench_kernel", 0, "the spheres spread over more than 1e8 cells");
  int nc[3] = { (int)span[0], (int)span[1], (int)span[2] };
  const size_t ncell = (size_t)nc[0] * nc[1] * nc[2];
  if (ncell > L->ncell_cap) {
    free(L->head);
    L->head = malloc(ncell * sizeof *L->head);
    if (!L->head)
      return fail("bench_kernel", 0, "out of memory");
    L->ncell_cap = ncell;
  }
  for (size_t c = 0; c < ncell; c++)
    L->head[c] = -1;
  for (size_t i = n; i-- > 0;) {
    int c[3];
    cell_index(a, a->x + 3 * i, cs, nc, c);
    const size_t cc = ((size_t)c[0] * nc[1] + c[1]) * nc[2] + c[2];
    L->next[i] = L->head[cc];
    L->head[cc] = (int32_t)i;
  }
  /* the old list becomes the source of the histories */
  int32_t *tp = L->pj_old;
  L->pj_old = L->pj;
  L->pj = tp;
  double *th = L->hist_old;
  L->hist_old = L->hist;
  L->hist = th;
  size_t *ts = L->start_old;
  L->start_old = L->start;
  L->start = ts;
  const int first = L->builds == 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    L->start[i] = k;
    int c[3];
    cell_index(a, a->x + 3 * i, cs, nc, c);
    for (int ax = -1; ax <= 1; ax++) {
      int qx = c[0] + ax;
      double sh = 0.0;
      if (qx < 0)
        qx += nc[0], sh = -a->lx;
      else if (qx >= nc[0])
        qx -= nc[0], sh = a->lx;
      for (int ay = -1; ay <= 1; ay++) {
        const int qy = c[1] + ay;
        if (qy < 0 || qy >= nc[1])
          continue;
        for (int az = -1; az <= 1; az++) {
          const int qz = c[2] + az;
          if (qz < 0 || qz >= nc[2])
            continue;
          for (int32_t j = L->head[((size_t)qx * nc[1] + qy) * nc[2] + qz]; j >= 0;
               j = L->next[j]) {
            if ((size_t)j <= i || (a->type[i] == 2 && a->type[j] == 2))
              continue;
            const double dx = a->x[3 * i] - (a->x[3 * j] + sh),
                         dy = a->x[3 * i + 1] - a->x[3 * j + 1],
                         dz = a->x[3 * i + 2] - a->x[3 * j + 2];
            const double rc = a->r[i] + a->r[j] + skin;
            if (dx * dx + dy * dy + dz * dz >= rc * rc)
              continue;
            if (k == L->cap)
              return fail("bench_kernel", 0, "more listed pairs than room (64 per sphere)");
            L->pj[k] = j;
            L->psx[k] = sh;
            L->pbd[k] = a->type[i] == 2 || a->type[j] == 2;
            double *h = L->hist + L->hw * k;
            memset(h, 0, L->hw * sizeof *h);
            for (size_t o = first ? 0 : L->start_old[i]; !first && o < L->start_old[i + 1]; o++)
              if (L->pj_old[o] == j) {
                memcpy(h, L->hist_old + L->hw * o, L->hw * sizeof *h);
                break;
              }
            k++;
          }
        }
      }
    }
  }
  L->start[n] = k;
  memcpy(L->x0, a->x, 3 * n * sizeof *a->x);
  L->builds++;
  return 0;
}

static int lists_alloc(lists *L, size_t n, size_t hw, size_t nrows)
{
  memset(L, 0, sizeof *L);
  L->hw = hw;
  L->cap = 64 * n;
  L->start = calloc(n + 1, sizeof *L->start), L->start_old = calloc(n + 1, sizeof *L->start);
  L->pj = malloc(L->cap * sizeof *L->pj), L->pj_old = malloc(L->cap * sizeof *L->pj);
  L->psx = malloc(L->cap * sizeof *L->psx);
  L->pbd = malloc(L->cap);
  L->hist = calloc(hw * L->cap, sizeof *L->hist);
  L->hist_old = calloc(hw * L->cap, sizeof *L->hist);
  L->x0 = malloc(3 * n * sizeof *L->x0), L->whist = calloc(3 * n, sizeof *L->whist);
  L->ci = malloc(L->cap * sizeof *L->ci), L->ck = malloc(L->cap * sizeof *L->ck);
  L->next = malloc(n * sizeof *L->next);
  /* the rows: each 192 bytes further into a page than the one before (see the head) */
  const size_t page = 4096, stride = (L->cap * sizeof(double) + page - 1) / page * page + 192;
  L->block = aligned_alloc(page, (stride * nrows + page - 1) / page * page); /* C11: a multiple */
  if (!L->start || !L->start_old || !L->pj || !L->pj_old || !L->psx || !L->pbd || !L->hist ||
      !L->hist_old || !L->x0 || !L->whist || !L->ci || !L->ck || !L->next || !L->block)
    return fail("bench_kernel", 0, "out of memory");
  for (size_t q = 0; q < nrows; q++)
    L->row[q] = (double *)((char *)L->block + q * stride);
  L->stride = stride / sizeof(double);
  if (hw == GHW_MOTION) /* -G: the record's rest, which the law reads and writes in its rows */
    for (int q = HPM; q <= HNS; q++)
      memset(L->row[q], 0, L->cap * sizeof(double));
  return 0;
}

static void lists_free(lists *L)
{
  free(L->start), free(L->start_old), free(L->pj), free(L->pj_old), free(L->psx), free(L->pbd);
  free(L->hist), free(L->hist_old), free(L->x0), free(L->whist), free(L->ci), free(L->ck);
  free(L->next), free(L->head), free(L->block);
}

/* pass C: pair_granular.cpp's hertz / tsuji / mindlin for the nc touching pairs in the rows,
 * every test a select so that the loop vectorises; d = x_i - x_j, vr = v_i - v_j as LAMMPS */
static void pair_law(double *const *row, size_t nc, const law *pp, const law *pb, double dt,
                     int update)
{
  double *restrict d0 = row[D0];
  const double *restrict d1 = row[D1], *restrict d2 = row[D2];
  const double *restrict vr0 = row[VR0], *restrict vr1 = row[VR1], *restrict vr2 = row[VR2];
  const double *restrict wr0 = row[WR0], *restrict wr1 = row[WR1], *restrict wr2 = row[WR2];
  double *restrict h0 = row[H0], *restrict h1 = row[H1], *restrict h2 = row[H2];
  const double *restrict ri = row[RI], *restrict rj = row[RJ], *restrict me = row[ME];
  const double *restrict bd = row[BD];
  double *restrict f0 = row[F0], *restrict f1 = row[F1], *restrict f2 = row[F2];
  double *restrict q0 = row[TQ0], *restrict q1 = row[TQ1], *restrict q2 = row[TQ2];
  /* without update (the set-up) no turn of the histories (an infinite threshold; a NaN, for
   * Fscrit = 0, fails the test too) and no step added; tests outside the loop, which GCC
   * would not vectorise with a test of update inside it */
  const double frame_eps = update ? 1e-10 : INFINITY, step = update ? dt : 0.0;
  /* the laws in locals: the rows' stores might otherwise change them, and their loads in the
   * loop kept it from being vectorised */
  const double kn_p = pp->kn, damp_p = pp->damp, kt_p = pp->kt, xt_p = pp->xt, mu_p = pp->mu;
  const double kn_b = pb->kn, damp_b = pb->damp, kt_b = pb->kt, xt_b = pb->xt, mu_b = pb->mu;
  const double lim_p = pp->limit, lim_b = pb->limit;
  /* the rows do not overlap: said here, since GCC does not take restrict on these locals once
   * the function is inlined, and the run-time overlap tests it would need are too many */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (size_t c = 0; c < nc; c++) {
    const int bead = bd[c] != 0.0;
    const double kn = bead ? kn_b : kn_p, dampc = bead ? damp_b : damp_p;
    const double ktc = bead ? kt_b : kt_p, xt = bead ? xt_b : xt_p, mu = bead ? mu_b : mu_p;
    const double rsq = d0[c] * d0[c] + d1[c] * d1[c] + d2[c] * d2[c];
    const double r = sqrt(rsq), rinv = 1.0 / r;
    const double nx = d0[c] * rinv, ny = d1[c] * rinv, nz = d2[c] * rinv;
    const double vnnr = vr0[c] * nx + vr1[c] * ny + vr2[c] * nz;
    const double radsum = ri[c] + rj[c], reff = ri[c] * rj[c] / radsum;
    const double delta = radsum - r, dR = delta * reff;
    const double a = sqrt(dR), knfac = kn * a, Fne = kn * delta * a;
    const double dnp = dampc * sqrt(me[c] * knfac);
    const double Fn = Fne - dnp * vnnr, lim = bead ? lim_b : lim_p;
    const double Fntot = lim != 0.0 && Fn < 0.0 ? 0.0 : Fn; /* limit_damping */
    const double vt0 = vr0[c] - nx * vnnr, vt1 = vr1[c] - ny * vnnr, vt2 = vr2[c] - nz * vnnr;
    const double vtr0 = vt0 - (nz * wr1[c] - ny * wr2[c]);
    const double vtr1 = vt1 - (nx * wr2[c] - nz * wr0[c]);
    const double vtr2 = vt2 - (ny * wr0[c] - nx * wr1[c]);
    const double Fscrit = mu * fabs(Fntot);
    const double kt = ktc * a, dampt = xt * dnp;
    /* the history turned into the tangent plane, its length kept */
    double g0 = h0[c], g1 = h1[c], g2 = h2[c];
    const double rsht = g0 * nx + g1 * ny + g2 * nz;
    const int frame = fabs(rsht) * kt > frame_eps * Fscrit;
    const double shr2 = g0 * g0 + g1 * g1 + g2 * g2;
    const double p0 = g0 - rsht * nx, p1 = g1 - rsht * ny, p2 = g2 - rsht * nz;
    const double prj2 = p0 * p0 + p1 * p1 + p2 * p2;
    const double prj = sqrt(prj2);
    const double scale = prj > 0 ? sqrt(shr2) / (prj > 0 ? prj : 1.0) : 0.0;
    g0 = frame ? p0 * scale : g0, g1 = frame ? p1 * scale : g1, g2 = frame ? p2 * scale : g2;
    g0 += vtr0 * step, g1 += vtr1 * step, g2 += vtr2 * step;
    double fs0 = -kt * g0 - dampt * vtr0, fs1 = -kt * g1 - dampt * vtr1,
           fs2 = -kt * g2 - dampt * vtr2;
    const double fs = sqrt(fs0 * fs0 + fs1 * fs1 + fs2 * fs2);
    const int slip = fs > Fscrit, held = g0 * g0 + g1 * g1 + g2 * g2 != 0.0;
    const double fsd = fs > 0 ? fs : 1.0, ikt = -1.0 / (kt > 0 ? kt : 1.0);
    const double s0 = Fscrit * fs0 / fsd, s1 = Fscrit * fs1 / fsd, s2 = Fscrit * fs2 / fsd;
    h0[c] = slip && held ? ikt * (s0 + dampt * vtr0) : g0;
    h1[c] = slip && held ? ikt * (s1 + dampt * vtr1) : g1;
    h2[c] = slip && held ? ikt * (s2 + dampt * vtr2) : g2;
    const double cut = Fscrit / fsd;
    fs0 = slip ? (held ? fs0 * cut : 0.0) : fs0;
    fs1 = slip ? (held ? fs1 * cut : 0.0) : fs1;
    fs2 = slip ? (held ? fs2 * cut : 0.0) : fs2;
    f0[c] = nx * Fntot + fs0, f1[c] = ny * Fntot + fs1, f2[c] = nz * Fntot + fs2;
    q0[c] = ny * fs2 - nz * fs1, q1[c] = nz * fs0 - nx * fs2, q2[c] = nx * fs1 - ny * fs0;
    d0[c] = 0.5 * delta; /* for the torques' arms (pass D) */
  }
}

/* -g: the constants of granucal's Hertz-Mindlin law for a pair of radii ri, rj and effective
 * mass m_eff with LAMMPS's law lw: the same Hertz force (LAMMPS's hertz is kn a delta with
 * a = sqrt(R* delta), so kn = 4/3 E*), the same no-slip stiffness (mindlin's kt a = K_T0 =
 * kt0_c a E*) and the same normal dashpot (LAMMPS's damp sqrt(m* kn a) = granucal's tsuji_c
 * sqrt(2 E* a)).  granucal's normal force does not pull (tension 0), LAMMPS's does unless the
 * deck says limit_damping; with it and friction 0 the two move the same (tests/kernel.sh).
 * The tangential dashpot differs (granucal's tsuji_c sqrt(K_T0), LAMMPS's xt times the normal
 * one), and granucal's tangential model is the dissertation's (eq. 4.10-4.21) rather than
 * mindlin's history: the same material, not the same numbers. */
static glaw glaw_of(const law *lw, double ri, double rj, double m_eff)
{
  glaw g;
  g.R_star = ri * rj / (ri + rj);
  g.E_star = 0.75 * lw->kn;
  g.k_hertz = 4.0 / 3.0 * g.E_star * sqrt(g.R_star); /* gc_pair_setup's */
  g.kt0_c = lw->kt / g.E_star;
  g.tsuji_c = lw->damp * sqrt(m_eff * lw->kn / (2.0 * g.E_star));
  g.mu = lw->mu;
  return g;
}

/* Pass A: the touching pairs into ci, ck (their count returned), without a branch; the others'
 * histories of hw numbers cleared by a product (a branch on whether to clear, taken at
 * random, made the step 1.28x as long; for -g a flag per pair and a branch taken only where a
 * pair separates, rare and so predicted, ran 0.9x as fast).  With ledger (-g), the last part of
 * the unloading of a pair that separates, -P alpha / 2 of its last step (as granucal's chute
 * books it), into sep[0] (sphere-sphere) or sep[1] (sphere-bead).  Inlined with constant hw
 * and ledger, so that the LAMMPS passes keep their loop. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline size_t
touching(const atoms *a, lists *L, size_t hw, int ledger, double sep[2])
{
  size_t nc = 0;
  const size_t n = a->n;
  for (size_t i = 0; i < n; i++) {
    const double xi[3] = { a->x[3 * i], a->x[3 * i + 1], a->x[3 * i + 2] }, ri = a->r[i];
    for (size_t k = L->start[i]; k < L->start[i + 1]; k++) {
      double d[3];
      const size_t j = (size_t)L->pj[k];
      const double rs = ri + a->r[j];
      const int touch = pair_sep(a, L, xi, k, d) < rs * rs;
      L->ci[nc] = (int32_t)i;
      L->ck[nc] = (int32_t)k;
      nc += (size_t)touch;
      double *h = L->hist + hw * k;
      const double keep = touch ? 1.0 : 0.0;
      if (ledger) {
        const double wsep = (1.0 - keep) * (-0.5 * h[GH_P] * h[GH_A]);
        const int bead = L->pbd[k];
        sep[1] += bead ? wsep : 0.0;
        sep[0] += bead ? 0.0 : wsep;
      }
      for (size_t e = 0; e < hw; e++)
        h[e] *= keep;
    }
  }
  return nc;
}

/* -g: the contact geometry of granucal's chute (pair_contact) for the separation d = x_i - x_j:
 * the unit normal m from i to j (eq. 4.9), the overlap alpha, the lever arms ai, aj = r -
 * alpha / 2 and the velocity of the contact point of j relative to i's, u = v_j + w_j x l_j
 * - (v_i + w_i x l_i) with l_i = ai m, l_j = -aj m (vr = v_i - v_j) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
geometry_gc(const double d[3], double ri, double rj, const double vr[3], const double wi[3],
            const double wj[3], double m[3], double *alpha, double *ai, double *aj, double u[3])
{
  const double rsq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], r = sqrt(rsq);
  m[0] = -d[0] / r, m[1] = -d[1] / r, m[2] = -d[2] / r; /* x_j - x_i */
  *alpha = ri + rj - r;
  *ai = ri - 0.5 * *alpha, *aj = rj - 0.5 * *alpha;
  const double x0 = -*aj * (wj[1] * m[2] - wj[2] * m[1]) - *ai * (wi[1] * m[2] - wi[2] * m[1]);
  const double x1 = -*aj * (wj[2] * m[0] - wj[0] * m[2]) - *ai * (wi[2] * m[0] - wi[0] * m[2]);
  const double x2 = -*aj * (wj[0] * m[1] - wj[1] * m[0]) - *ai * (wi[0] * m[1] - wi[1] * m[0]);
  u[0] = x0 - vr[0], u[1] = x1 - vr[1], u[2] = x2 - vr[2];
}

/* The touching pair in column c of the rows (D0.., RI, RJ, VR0.., WR0.., WJ0.., BD): its
 * geometry (geometry_gc) and the law's constants by its kind, p's or, for a sphere-bead pair,
 * b's (selects of the bits, gc_pick: with ?: GCC did not vectorise the fused loop) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
contact_at(double *const *row, size_t c, const glaw *p, const glaw *b, double m[3], double *alpha,
           double *ai, double *aj, double u[3], gc_hm_consts *k)
{
  const double d[3] = { row[D0][c], row[D1][c], row[D2][c] };
  const double vr[3] = { row[VR0][c], row[VR1][c], row[VR2][c] };
  const double wi[3] = { row[WR0][c], row[WR1][c], row[WR2][c] };
  const double wj[3] = { row[WJ0][c], row[WJ1][c], row[WJ2][c] };
  geometry_gc(d, row[RI][c], row[RJ][c], vr, wi, wj, m, alpha, ai, aj, u);
  const int bead = row[BD][c] != 0.0;
  *k = (gc_hm_consts){ gc_pick(bead, b->R_star, p->R_star),
                       gc_pick(bead, b->k_hertz, p->k_hertz),
                       gc_pick(bead, b->E_star, p->E_star),
                       gc_pick(bead, b->kt0_c, p->kt0_c),
                       gc_pick(bead, b->tsuji_c, p->tsuji_c),
                       gc_pick(bead, b->mu, p->mu),
                       0.0 };
}

/* -g: the torques of force F on i at the contact point, l_i x F = ai m x F on i and
 * l_j x (-F) = aj m x F on j */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
torques_of(const double m[3], const double F[3], double ai, double aj, double ti[3], double tj[3])
{
  const double c0 = m[1] * F[2] - m[2] * F[1], c1 = m[2] * F[0] - m[0] * F[2],
               c2 = m[0] * F[1] - m[1] * F[0];
  ti[0] = ai * c0, ti[1] = ai * c1, ti[2] = ai * c2;
  tj[0] = aj * c0, tj[1] = aj * c1, tj[2] = aj * c2;
}

/* -g pass C, before the law: the contact geometry and the law's constants (contact_at) into
 * gc_hm_rows_step's rows */
static void rows_gc(double *const *row, size_t nc, const glaw *pp, const glaw *pb)
{
  double *restrict al = row[GAL], *restrict n0 = row[GN0], *restrict n1 = row[GN0 + 1],
                   *restrict n2 = row[GN0 + 2];
  double *restrict u0 = row[GV0], *restrict u1 = row[GV0 + 1], *restrict u2 = row[GV0 + 2];
  double *restrict rs = row[GRS], *restrict kh = row[GKH], *restrict es = row[GES],
                   *restrict kt = row[GKT], *restrict tc = row[GTC], *restrict mu = row[GMU],
                   *restrict tn = row[GTN];
  const glaw p = *pp, b = *pb; /* in locals, as pair_law's */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (size_t c = 0; c < nc; c++) {
    double m[3], alpha, ai, aj, u[3];
    gc_hm_consts k;
    contact_at(row, c, &p, &b, m, &alpha, &ai, &aj, u, &k);
    al[c] = alpha, n0[c] = m[0], n1[c] = m[1], n2[c] = m[2];
    u0[c] = u[0], u1[c] = u[1], u2[c] = u[2];
    rs[c] = k.R_star, kh[c] = k.k_hertz, es[c] = k.E_star, kt[c] = k.kt0_c;
    tc[c] = k.tsuji_c, mu[c] = k.mu, tn[c] = k.tension;
  }
}

/* -g pass C, after the law: the torques (torques_of) */
static void torques_gc(double *const *row, size_t nc)
{
  const double *restrict ri = row[RI], *restrict rj = row[RJ];
  const double *restrict al = row[GAL], *restrict n0 = row[GN0], *restrict n1 = row[GN0 + 1],
                         *restrict n2 = row[GN0 + 2];
  const double *restrict f0 = row[GF0], *restrict f1 = row[GF0 + 1], *restrict f2 = row[GF0 + 2];
  double *restrict ti0 = row[TQ0], *restrict ti1 = row[TQ1], *restrict ti2 = row[TQ2];
  double *restrict tj0 = row[TJ0], *restrict tj1 = row[TJ1], *restrict tj2 = row[TJ2];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (size_t c = 0; c < nc; c++) {
    const double m[3] = { n0[c], n1[c], n2[c] }, F[3] = { f0[c], f1[c], f2[c] };
    double ti[3], tj[3];
    torques_of(m, F, ri[c] - 0.5 * al[c], rj[c] - 0.5 * al[c], ti, tj);
    ti0[c] = ti[0], ti1[c] = ti[1], ti2[c] = ti[2];
    tj0[c] = tj[0], tj1[c] = tj[1], tj2[c] = tj[2];
  }
}

/* -F pass C: rows_gc, the law and torques_gc fused in one loop, the law being gc_hm_step
 * (hm_step.h, the body of gc_hm_rows_step's loop) with only the record's P: the numbers of
 * the record's bookkeeping (P_max, alpha_max, the TFD scalars) are not used and so not
 * computed, and the pair's constants are taken from locals instead of rows.  The same
 * numbers to the bit as -G (tests/kernel.sh).  -N (ledger 0): without the energy ledger, so
 * without P and alpha of the last step, which only the work needs: the same motion again. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
pair_law_fused(double *const *row, size_t nc, const glaw *pp, const glaw *pb, double dt,
               const int ledger)
{
  const double *restrict ha = row[HA];
  const double *restrict q0 = row[GQ0], *restrict q1 = row[GQ0 + 1], *restrict q2 = row[GQ0 + 2];
  double *restrict hp = row[HP], *restrict al = row[GAL];
  double *restrict qn0 = row[GQN0], *restrict qn1 = row[GQN0 + 1], *restrict qn2 = row[GQN0 + 2];
  double *restrict f0 = row[GF0], *restrict f1 = row[GF0 + 1], *restrict f2 = row[GF0 + 2];
  double *restrict ti0 = row[TQ0], *restrict ti1 = row[TQ1], *restrict ti2 = row[TQ2];
  double *restrict tj0 = row[TJ0], *restrict tj1 = row[TJ1], *restrict tj2 = row[TJ2];
  double *restrict w0 = row[GW0], *restrict w1 = row[GW1], *restrict ok = row[GOK];
  const glaw p = *pp, b = *pb;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (size_t c = 0; c < nc; c++) {
    double m[3], alpha, ai, aj, u[3];
    gc_hm_consts k;
    contact_at(row, c, &p, &b, m, &alpha, &ai, &aj, u, &k);
    gc_hm_record s = { ledger ? hp[c] : 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
    gc_hm_result o;
    gc_hm_step(alpha, m[0], m[1], m[2], u[0], u[1], u[2], &k, q0[c], q1[c], q2[c],
               ledger ? ha[c] : 0.0, dt, &s, &o);
    const double F[3] = { o.F0, o.F1, o.F2 };
    double ti[3], tj[3];
    torques_of(m, F, ai, aj, ti, tj);
    if (ledger)
      al[c] = alpha, hp[c] = s.P, w0[c] = o.work_n, w1[c] = o.work_t;
    qn0[c] = o.Q0, qn1[c] = o.Q1, qn2[c] = o.Q2;
    f0[c] = o.F0, f1[c] = o.F1, f2[c] = o.F2;
    ti0[c] = ti[0], ti1[c] = ti[1], ti2[c] = ti[2];
    tj0[c] = tj[0], tj1[c] = tj[1], tj2[c] = tj[2];
    ok[c] = o.ok;
  }
}

/* -g pass C: rows_gc, granucal's Hertz-Mindlin step over the rows (gc_hm_rows_step, the loop
 * its chute steps its contacts with; row[G0 + q] = row[G0] + q stride), torques_gc */
static int pair_law_gc(double *const *row, size_t stride, size_t nc, const glaw *pp, const glaw *pb,
                       double dt)
{
  rows_gc(row, nc, pp, pb);
  if (gc_hm_rows_step(row[G0], stride, nc, dt))
    return fail("bench_kernel", 0, "-g: the rows are shorter than the contacts");
  torques_gc(row, nc);
  return 0;
}

/* -g passes A-D: as the LAMMPS ones, with granucal's law (pair_law_gc), its history of GHW
 * numbers per pair (-G: GHW_MOTION) and its energy ledger (the work of each contact, and at a
 * separation the last part of the unloading, -P alpha / 2 of the last step, as granucal's
 * chute books them; the work of gravity is booked with the drift).  The set-up (update 0)
 * steps the law once from the empty records the deck's contacts come with, and keeps its
 * force (Q, P) and alpha, which act in the first half-kick, so that the first step's work
 * starts from them; the record's rest is not kept */
static int pairs_gc(atoms *a, lists *L, const deck *dk, int update)
{
  const int full = L->hw == GHW;     /* -g; -G: the record's rest left in its rows (zeroed once) */
  const int ledger = dk->gmode != 4; /* -N: no ledger, a history of Q alone */
  double sep[2] = { 0.0, 0.0 };
  /* A: hw a constant in each copy (a loop of L->hw numbers per listed pair: 0.98x) */
  if (L->hw != (full ? GHW : ledger ? GHW_MOTION : 3))
    return fail("bench_kernel", 0, "the history's width is not the mode's");
  const size_t nc = full     ? touching(a, L, GHW, 1, sep)
                    : ledger ? touching(a, L, GHW_MOTION, 1, sep)
                             : touching(a, L, 3, 0, NULL);
  double *const *row = L->row;
  for (size_t c = 0; c < nc; c++) { /* B */
    const size_t i = (size_t)L->ci[c], k = (size_t)L->ck[c], j = (size_t)L->pj[k];
    const double *h = L->hist + L->hw * k;
    double d[3];
    pair_sep(a, L, a->x + 3 * i, k, d);
    for (int e = 0; e < 3; e++) {
      row[D0 + e][c] = d[e];
      row[VR0 + e][c] = a->v[3 * i + e] - a->v[3 * j + e];
      row[WR0 + e][c] = a->w[3 * i + e];
      row[WJ0 + e][c] = a->w[3 * j + e];
      row[GQ0 + e][c] = h[GH_Q0 + e];
    }
    if (ledger)
      row[HP][c] = h[GH_P], row[HA][c] = h[GH_A];
    if (full) {
      row[HPM][c] = h[GH_PM], row[HAM][c] = h[GH_AM], row[HTQ][c] = h[GH_TQ];
      row[HQS][c] = h[GH_QS], row[HDL][c] = h[GH_DL], row[HQD][c] = h[GH_QD];
      row[HNS][c] = h[GH_NS];
    }
    row[RI][c] = a->r[i], row[RJ][c] = a->r[j];
    row[BD][c] = a->type[i] == 2 || a->type[j] == 2 ? 1.0 : 0.0;
  }
  if (dk->gmode == 3) /* C */
    pair_law_fused(row, nc, &dk->gpp, &dk->gpb, dk->dt, 1);
  else if (dk->gmode == 4)
    pair_law_fused(row, nc, &dk->gpp, &dk->gpb, dk->dt, 0);
  else if (pair_law_gc(row, L->stride, nc, &dk->gpp, &dk->gpb, dk->dt))
    return 1;
  double wn_pp = 0.0, wt_pp = 0.0, wn_pb = 0.0, wt_pb = 0.0, bad = 0.0;
  for (size_t c = 0; c < nc; c++) { /* D */
    const size_t i = (size_t)L->ci[c], k = (size_t)L->ck[c], j = (size_t)L->pj[k];
    for (int e = 0; e < 3; e++) {
      a->f[3 * i + e] += row[GF0 + e][c];
      a->f[3 * j + e] -= row[GF0 + e][c];
      a->t[3 * i + e] += row[TQ0 + e][c];
      a->t[3 * j + e] += row[TJ0 + e][c];
    }
    if (ledger) {
      const double bd = row[BD][c];
      wn_pb += bd * row[GW0][c], wt_pb += bd * row[GW1][c];
      wn_pp += (1.0 - bd) * row[GW0][c], wt_pp += (1.0 - bd) * row[GW1][c];
    }
    bad += row[GOK][c] == 0.0 ? 1.0 : 0.0;
    /* the force and alpha, also after the set-up (they act in the first half-kick: the first
     * step's work starts from them); the record's rest only after a step */
    double *h = L->hist + L->hw * k;
    for (int e = 0; e < 3; e++)
      h[GH_Q0 + e] = row[GQN0 + e][c];
    if (ledger)
      h[GH_P] = row[HP][c], h[GH_A] = row[GAL][c];
    if (update && full) {
      h[GH_PM] = row[HPM][c], h[GH_AM] = row[HAM][c], h[GH_TQ] = row[HTQ][c];
      h[GH_QS] = row[HQS][c], h[GH_DL] = row[HDL][c], h[GH_QD] = row[HQD][c];
      h[GH_NS] = row[HNS][c];
    }
  }
  if (update) {
    L->wn_pp += wn_pp + sep[0], L->wt_pp += wt_pp;
    L->wn_pb += wn_pb + sep[1], L->wt_pb += wt_pb;
  }
  L->bad += (long)bad;
  return 0;
}

/* fix wall/gran zplane: the nearer wall of sphere i (fix_wall_gran.cpp: Reff = r, torque
 * arm r) */
static void wall_force(atoms *a, lists *L, size_t i, const law *lw, double zlo, double zhi,
                       double dt, int update)
{
  const double z = a->x[3 * i + 2], del1 = z - zlo, del2 = zhi - z;
  const double dz = del1 < del2 ? del1 : -del2, rad = a->r[i];
  double *h = L->whist + 3 * i;
  if (dz * dz > rad * rad) {
    h[0] = h[1] = h[2] = 0.0;
    return;
  }
  const double r = fabs(dz), nz = dz / r;
  const double *v = a->v + 3 * i, *w = a->w + 3 * i;
  const double vnnr = v[2] * nz, delta = rad - r, dR = delta * rad;
  const double aa = sqrt(dR), knfac = lw->kn * aa, Fne = lw->kn * delta * aa;
  const double dnp = lw->damp * sqrt(a->m[i] * knfac), Fn = Fne - dnp * vnnr;
  const double Fntot = lw->limit != 0.0 && Fn < 0.0 ? 0.0 : Fn; /* limit_damping */
  const double vtr[3] = { v[0] - nz * (rad * w[1]), v[1] + nz * (rad * w[0]), 0.0 };
  const double Fscrit = lw->mu * fabs(Fntot), kt = lw->kt * aa, dampt = lw->xt * dnp;
  const double rsht = h[2] * nz;
  if (update && fabs(rsht) * kt > 1e-10 * Fscrit) {
    const double shr = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    h[2] -= rsht * nz;
    const double prj = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    const double s = prj > 0 ? shr / prj : 0.0;
    h[0] *= s, h[1] *= s, h[2] *= s;
  }
  double fs[3];
  for (int e = 0; e < 3; e++) {
    if (update)
      h[e] += vtr[e] * dt;
    fs[e] = -kt * h[e] - dampt * vtr[e];
  }
  const double fm = sqrt(fs[0] * fs[0] + fs[1] * fs[1] + fs[2] * fs[2]);
  if (fm > Fscrit) {
    const int held = h[0] != 0.0 || h[1] != 0.0 || h[2] != 0.0;
    for (int e = 0; e < 3; e++) {
      if (held)
        h[e] = -1.0 / kt * (Fscrit * fs[e] / fm + dampt * vtr[e]);
      fs[e] = held ? fs[e] * (Fscrit / fm) : 0.0;
    }
  }
  double *f = a->f + 3 * i, *t = a->t + 3 * i;
  f[0] += fs[0], f[1] += fs[1], f[2] += nz * Fntot + fs[2];
  t[0] -= rad * (-nz * fs[1]), t[1] -= rad * (nz * fs[0]);
}

/* gravity and the walls on the flow's spheres, LAMMPS's fix order (in -g too: the walls keep
 * LAMMPS's law there, and their work is not booked) */
static void walls_gravity(atoms *a, lists *L, const deck *dk, int update)
{
  for (size_t i = 0; i < a->n; i++) {
    if (a->type[i] != 1)
      continue;
    for (int e = 0; e < 3; e++)
      a->f[3 * i + e] += a->m[i] * dk->g[e];
    wall_force(a, L, i, &dk->wall, dk->zlo, dk->zhi, dk->dt, update);
  }
}

/* the forces and torques of step n: passes A-D, the walls, gravity; update 0 in the set-up,
 * where LAMMPS neither turns nor adds to the tangential histories (historyupdate) */
static int forces(atoms *a, lists *L, const deck *dk, int update)
{
  const size_t n = a->n;
  memset(a->f, 0, 3 * n * sizeof *a->f);
  memset(a->t, 0, 3 * n * sizeof *a->t);
  if (dk->gmode) {
    if (pairs_gc(a, L, dk, update))
      return 1;
    walls_gravity(a, L, dk, update);
    return 0;
  }
  const size_t nc = touching(a, L, 3, 0, NULL); /* A */
  /* B: their numbers into rows */
  double *const *row = L->row;
  for (size_t c = 0; c < nc; c++) {
    const size_t i = (size_t)L->ci[c], k = (size_t)L->ck[c], j = (size_t)L->pj[k];
    const double *h = L->hist + 3 * k;
    double d[3];
    pair_sep(a, L, a->x + 3 * i, k, d);
    for (int e = 0; e < 3; e++) {
      row[D0 + e][c] = d[e];
      row[VR0 + e][c] = a->v[3 * i + e] - a->v[3 * j + e];
      row[WR0 + e][c] = a->r[i] * a->w[3 * i + e] + a->r[j] * a->w[3 * j + e];
      row[H0 + e][c] = h[e];
    }
    row[RI][c] = a->r[i], row[RJ][c] = a->r[j];
    /* a frozen bead's partner's mass (pair_granular.cpp) */
    row[ME][c] = a->type[i] == 2   ? a->m[j]
                 : a->type[j] == 2 ? a->m[i]
                                   : a->m[i] * a->m[j] / (a->m[i] + a->m[j]);
    row[BD][c] = a->type[i] == 2 || a->type[j] == 2 ? 1.0 : 0.0;
  }
  /* C: the law */
  pair_law(row, nc, &dk->pp, &dk->pb, dk->dt, update);
  /* D: the sums (LAMMPS's signs: f_i += F, torque_i -= (r_i - delta / 2) n x fs) */
  for (size_t c = 0; c < nc; c++) {
    const size_t i = (size_t)L->ci[c], k = (size_t)L->ck[c], j = (size_t)L->pj[k];
    const double ai = row[RI][c] - row[D0][c], aj = row[RJ][c] - row[D0][c];
    double *h = L->hist + 3 * k;
    for (int e = 0; e < 3; e++) {
      h[e] = row[H0 + e][c];
      a->f[3 * i + e] += row[F0 + e][c];
      a->f[3 * j + e] -= row[F0 + e][c];
      a->t[3 * i + e] -= ai * row[TQ0 + e][c];
      a->t[3 * j + e] -= aj * row[TQ0 + e][c];
    }
  }
  walls_gravity(a, L, dk, update);
  return 0;
}

/* compute contact/atom summed over type 1 */
static long contacts(const atoms *a, const lists *L)
{
  long c = 0;
  for (size_t i = 0; i < a->n; i++)
    for (size_t k = L->start[i]; k < L->start[i + 1]; k++) {
      const size_t j = (size_t)L->pj[k];
      double d[3];
      const double rs = a->r[i] + a->r[j];
      if (pair_sep(a, L, a->x + 3 * i, k, d) < rs * rs)
        c += (a->type[i] == 1) + (a->type[j] == 1);
    }
  return c;
}

/* -g: the kinetic energy of rotation of the flow's spheres (I = 2/5 m r^2, nve/sphere's) */
static double kinetic_rot(const atoms *a)
{
  double ke = 0;
  for (size_t i = 0; i < a->n; i++) {
    const double *w = a->w + 3 * i;
    if (a->type[i] == 1)
      ke += 0.2 * a->m[i] * a->r[i] * a->r[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  }
  return ke;
}

static double kinetic(const atoms *a)
{
  double ke = 0;
  for (size_t i = 0; i < a->n; i++) {
    const double *v = a->v + 3 * i;
    ke += 0.5 * a->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  return ke;
}

/* fix nve/sphere's half kick (velocity Verlet) of the type 1 spheres */
static void kick(atoms *a, double dt)
{
  const double dtf = 0.5 * dt, dtfrot = dtf / 0.4;
  for (size_t i = 0; i < a->n; i++) {
    if (a->type[i] != 1)
      continue;
    const double dtfm = dtf / a->m[i], dtir = dtfrot / (a->r[i] * a->r[i] * a->m[i]);
    for (int e = 0; e < 3; e++) {
      a->v[3 * i + e] += dtfm * a->f[3 * i + e];
      a->w[3 * i + e] += dtir * a->t[3 * i + e];
    }
  }
}

/* -g: granucal's constants of the sphere-sphere and sphere-bead laws (glaw_of), which needs
 * one radius and mass of the flow's spheres and one radius of the beads */
static int set_glaws(const atoms *a, deck *dk, const char *path)
{
  double r1 = 0, m1 = 0, r2 = 0;
  for (size_t i = 0; i < a->n; i++) {
    const int flow = a->type[i] == 1;
    double *r = flow ? &r1 : &r2;
    if (*r == 0)
      *r = a->r[i];
    if (flow && m1 == 0)
      m1 = a->m[i];
    if (a->r[i] != *r || (flow && a->m[i] != m1))
      return fail(path, 0,
                  "-g needs one radius and mass of the type 1 spheres and one radius "
                  "of the type 2 beads");
  }
  dk->gpp = glaw_of(&dk->pp, r1, r1, m1 * m1 / (m1 + m1));
  dk->gpb = glaw_of(&dk->pb, r1, r2 > 0 ? r2 : r1, m1); /* a frozen bead: the sphere's mass */
  return 0;
}

int main(int argc, char **argv)
{
  static const char *const gname[] = { "", "-g", "-G", "-F", "-N" };
  const int opt = argc == 4;
  const int gmode = !opt                     ? 0
                    : !strcmp(argv[1], "-g") ? 1
                    : !strcmp(argv[1], "-G") ? 2
                    : !strcmp(argv[1], "-F") ? 3
                    : !strcmp(argv[1], "-N") ? 4
                                             : -1;
  if ((argc != 3 && argc != 4) || gmode < 0) {
    fprintf(stderr, "usage: bench_kernel [-g | -G | -F | -N] LAMMPS_INPUT STEPS\n");
    return 2;
  }
  const char *input = argv[1 + opt], *steps = argv[2 + opt];
  char *end;
  errno = 0;
  const long nsteps = strtol(steps, &end, 10);
  if (*end || errno || nsteps < 1 || nsteps > 100000000) {
    fprintf(stderr, "bench_kernel: STEPS must be a whole number 1 .. 1e8, not '%s'\n", steps);
    return 2;
  }
  deck dk;
  atoms a;
  lists L;
  memset(&dk, 0, sizeof dk);
  memset(&a, 0, sizeof a);
  memset(&L, 0, sizeof L);
  if (read_deck(input, &dk))
    return 1;
  dk.gmode = gmode;
  int st = read_atoms(dk.data, &a);
  if (!st && gmode)
    st = set_glaws(&a, &dk, dk.data);
  if (!st) {
    a.zlo = fmin(a.zlo, dk.zlo), a.zhi = fmax(a.zhi, dk.zhi);
    st = lists_alloc(&L, a.n,
                     gmode == 1                 ? GHW
                     : gmode == 2 || gmode == 3 ? GHW_MOTION
                                                : 3,
                     gmode ? NROWS : NROWS_LAMMPS);
  }
  if (!st)
    st = build(&a, &L, dk.skin);
  long c0 = 0, c1 = 0;
  double ke0 = 0, ke1 = 0, kr0 = 0, kr1 = 0, secs = 0;
  if (!st) {
    c0 = contacts(&a, &L);
    ke0 = kinetic(&a);
    kr0 = kinetic_rot(&a);
    st = forces(&a, &L, &dk, 0); /* LAMMPS's set-up: the forces of the initial state */
    if (!st && L.bad)
      st = fail(input, 0, "-g: a contact's force is not finite in the initial state");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const double trig = 0.25 * dk.skin * dk.skin;
    for (long s = 0; s < nsteps && !st; s++) {
      kick(&a, dk.dt);
      double wg = 0.0; /* -g: the work of gravity in the drift, m g . v_{n+1/2} dt */
      for (size_t i = 0; i < a.n; i++)
        if (a.type[i] == 1) {
          for (int e = 0; e < 3; e++)
            a.x[3 * i + e] += dk.dt * a.v[3 * i + e];
          if (gmode && gmode != 4) /* -N books no work */
            wg += a.m[i] *
                  (dk.g[0] * a.v[3 * i] + dk.g[1] * a.v[3 * i + 1] + dk.g[2] * a.v[3 * i + 2]) *
                  dk.dt;
        }
      L.w_grav += wg;
      double m2 = 0;
      for (size_t i = 0; i < a.n; i++) {
        const double *x = a.x + 3 * i, *x0 = L.x0 + 3 * i;
        const double dx = x[0] - x0[0], dy = x[1] - x0[1], dz = x[2] - x0[2];
        const double d2 = dx * dx + dy * dy + dz * dz;
        m2 = d2 > m2 ? d2 : m2;
      }
      if (m2 > trig && (st = build(&a, &L, dk.skin)) != 0)
        break; /* the list is half made: no forces from it */
      if ((st = forces(&a, &L, &dk, 1)) != 0)
        break;
      if (L.bad) {
        st = fail(input, 0, "-g: a contact's force is not finite");
        break;
      }
      kick(&a, dk.dt);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!st) { /* a failed rebuild leaves the list half made */
      c1 = contacts(&a, &L);
      ke1 = kinetic(&a);
      kr1 = kinetic_rot(&a);
    }
    if (!st && !(isfinite(ke1)))
      st = fail(input, 0, "the kinetic energy is not finite at the end");
  }
  if (!st)
    printf("bench_kernel: %ld steps of %zu spheres in %.4f s: %.4g sphere-steps/s; contacts %ld "
           "-> %ld; KE %.15g -> %.15g J; %ld builds\n",
           nsteps, a.nflow, secs, (double)nsteps * (double)a.nflow / secs, c0, c1, ke0, ke1,
           L.builds - 1);
  if (!st && gmode && gmode != 4) {
    /* the energy balance: the change of the kinetic energy (translation and rotation) against
     * the work of gravity less the work the contacts absorbed (the walls' is not booked: a
     * deck whose walls are out of reach closes it) */
    const double dk_e = (ke1 + kr1) - (ke0 + kr0);
    const double wc = L.wn_pp + L.wt_pp + L.wn_pb + L.wt_pb;
    printf("bench_kernel %s: energy balance: kinetic energy (translation + rotation) %.9g -> "
           "%.9g J, change %.9g J; work of gravity less the work absorbed %.9g J; residual "
           "%.3g of the work of gravity\n",
           gname[gmode], ke0 + kr0, ke1 + kr1, dk_e, L.w_grav - wc,
           (dk_e - (L.w_grav - wc)) / L.w_grav);
  }
  if (!st && gmode && gmode != 4)
    printf("bench_kernel %s: work absorbed by the contacts %.9g J (sphere-sphere normal %.6g, "
           "tangential %.6g; sphere-bead normal %.6g, tangential %.6g); work of gravity %.9g J\n",
           gname[gmode], L.wn_pp + L.wt_pp + L.wn_pb + L.wt_pb, L.wn_pp, L.wt_pp, L.wn_pb, L.wt_pb,
           L.w_grav);
  free(a.x), free(a.v), free(a.w), free(a.f), free(a.t), free(a.r), free(a.m), free(a.type);
  lists_free(&L);
  return st ? 1 : 0;
}
