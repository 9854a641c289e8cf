/* pair_granucal.cpp - the LAMMPS pair style "granucal" (see pair_granucal.h).
 *
 *   pair_style granucal [normal NAME] [damping NAME] [tangential NAME|none] [rolling NAME]
 *                       [twisting NAME] [keep_history yes|no]
 *   pair_coeff I J PARAMFILE [KEY VALUE]...
 *
 * PARAMFILE is a granucal parameter file (granucal-params(5), as `granucal fit -o` writes it):
 * body 1 is the material of type I, body 2 that of type J (its keys E2, nu2, sY2; when the file
 * and the keywords give no E2, body 2 is of body 1's material).  The radii come from the atoms
 * (R1, R2 of the file are ignored).  KEY VALUE pairs override the file (any parameter of
 * `granucal models`, e.g. mu 0.3).  Model names default to the file's "model" / "tfd" keys,
 * else ep / ep.
 *
 * Contact geometry and kinematics are granucal's chute (src/chute.c, eq. 4.9-4.13): n from
 * body 1 to body 2, overlap alpha = R1 + R2 - |d|, the contact point on the line of centres at
 * R1 - alpha/2 from body 1, the velocities of both bodies' material there from v + w x lever,
 * the force -P n + Q on body 1, torques lever x F (+ the rolling / twisting couple).
 *
 * Which atom is body 1: the atom of the lower type, and for equal types the lower atom ID.
 * The contact state is stored in that frame, so it does not depend on which of the two atoms
 * holds the pair in the neighbour list (that changes with the domain decomposition): when
 * LAMMPS moves a history to the partner atom it is copied unchanged (transfer_history), and
 * runs on 1 and N ranks see the same contacts.
 *
 * At set-up (update->setupflag: the force computation at the start of a `run`) the state is
 * not advanced: the force is the one the last step left, -P n + Q, rebuilt from the state
 * (exact when the positions are those of that step).  A contact that already overlaps when a
 * run starts from a zeroed state has no force until the first step. */
#include "pair_granucal.h"
#include "rank_error.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "fix_neigh_history.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "update.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;

PairGranucal::PairGranucal(LAMMPS *lmp) : PairGranHookeHistory(lmp)
{
  single_enable = 1;
  /* svector of single(): PairGranHookeHistory allocated 10 */
  single_extra = 9;
  restartinfo = 0;
  nondefault_history_transfer = 1;
  state_size = 0;
  reads_meff = 0;
  size_history = 0;
}

PairGranucal::~PairGranucal()
{
  for (auto *p : pair_params)
    granucal_params_free(p);
}

granucal_params *&PairGranucal::params_of(int i, int j)
{
  if (i > j)
    std::swap(i, j);
  return pair_params[(size_t)i * (atom->ntypes + 1) + j];
}

void PairGranucal::settings(int narg, char **arg)
{
  if (narg % 2)
    error->all(FLERR, "pair_style granucal: keywords come in KEY VALUE pairs");
  for (int a = 0; a < narg; a += 2) {
    std::string why;
    int known = models.set(arg[a], arg[a + 1], why);
    if (known < 0)
      error->all(FLERR, "pair_style granucal: {}", why);
    if (!known)
      error->all(FLERR,
                 "pair_style granucal: unknown keyword '{}' (normal, damping, tangential, "
                 "rolling, twisting, keep_history)",
                 arg[a]);
  }
}

void PairGranucal::coeff(int narg, char **arg)
{
  if (narg < 3 || (narg - 3) % 2)
    error->all(FLERR, "pair_coeff for granucal: I J PARAMFILE [KEY VALUE]...");
  if (!allocated)
    allocate();
  if (pair_params.empty())
    pair_params.assign((size_t)(atom->ntypes + 1) * (atom->ntypes + 1), nullptr);

  char msg[512];
  std::vector<std::pair<std::string, double>> overrides;
  for (int a = 3; a < narg; a += 2)
    overrides.emplace_back(arg[a], utils::numeric(FLERR, arg[a + 1], false, lmp));
  granucal_params *p = nullptr;
  if (granucal_params_load(&p, arg[2], overrides, msg, sizeof msg))
    error->all(FLERR, "pair_coeff granucal: {}", msg);

  /* check now that the models and the parameters compose (radius 1 mm as a placeholder: the
   * laws of the run are built with the atoms' radii) */
  granucal_law *law = nullptr;
  if (models.build(p, 1e-3, 1e-3, 1e-6, &law, msg, sizeof msg)) {
    granucal_params_free(p);
    error->all(FLERR, "pair_coeff granucal {}: {}", arg[2], msg);
  }
  size_t ns = granucal_law_state_size(law);
  std::string lname = granucal_law_name(law);
  /* m_eff, when the models read it, is the pair's reduced mass, not the file's */
  reads_meff = granucal_law_reads(law, "m_eff");
  granucal_law_free(law);
  if (state_size && ns != state_size)
    error->all(FLERR, "pair_coeff granucal: all type pairs must use the same models");
  state_size = ns;
  scratch.resize(ns);
  size_history = (int)ns;

  int ilo, ihi, jlo, jhi, count = 0;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);
  for (int i = ilo; i <= ihi; i++)
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      granucal_params *&slot = params_of(i, j);
      if (!slot && granucal_params_new(&slot))
        error->all(FLERR, "granucal: out of memory");
      granucal_params_copy(slot, p);
      setflag[i][j] = 1;
      count++;
    }
  granucal_params_free(p);
  if (count == 0)
    error->all(FLERR, "Incorrect args for pair coefficients");
  /* laws built with older coefficients are stale */
  laws.clear();
  if (comm->me == 0)
    utils::logmesg(lmp, "granucal: pair {} {}: {} ({} doubles of history per contact)\n", arg[0],
                   arg[1], lname, ns);
}

void PairGranucal::init_style()
{
  if (state_size == 0)
    error->all(FLERR, "pair granucal: no pair_coeff given");
  if (!force->newton_pair)
    error->all(FLERR, "pair granucal requires newton pair on (each contact computed once)");
  PairGranHookeHistory::init_style();
  if (comm->me == 0 && laws.size())
    utils::logmesg(lmp, "granucal: pair granucal holds {} laws (rank 0)\n", laws.size());
}

/* The state is in the frame of body 1 chosen by type and atom ID, not by the list: copy. */
void PairGranucal::transfer_history(double *source, double *target)
{
  for (size_t m = 0; m < state_size; m++)
    target[m] = source[m];
}

granucal_law *PairGranucal::law_for(int itype, int jtype, double Ri, double Rj, double meff)
{
  granucal_law *law = laws.find(itype, jtype, Ri, Rj, meff);
  if (law)
    return law;
  granucal_params *base = params_of(itype, jtype);
  if (!base)
    rank_error(lmp, FLERR, "pair granucal: no pair_coeff for types {} {}", itype, jtype);
  char msg[512];
  if (models.build(base, Ri, Rj, meff, &law, msg, sizeof msg))
    rank_error(lmp, FLERR, "pair granucal, types {} {}, radii {} {}: {}", itype, jtype, Ri, Rj,
               msg);
  laws.add(itype, jtype, Ri, Rj, meff, law);
  return law;
}

void PairGranucal::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  const int setup = update->setupflag;

  /* rigid-body masses for m_eff (as pair gran/hooke/history) */
  if (fix_rigid && neighbor->ago == 0) {
    int tmp;
    int *body = (int *)fix_rigid->extract("body", tmp);
    double *mass_body = (double *)fix_rigid->extract("masstotal", tmp);
    if (atom->nmax > nmax) {
      memory->destroy(mass_rigid);
      nmax = atom->nmax;
      memory->create(mass_rigid, nmax, "pair:mass_rigid");
    }
    for (int i = 0; i < atom->nlocal; i++)
      mass_rigid[i] = body[i] >= 0 ? mass_body[body[i]] : 0.0;
    comm->forward_comm_pair(this);
  }

  double **x = atom->x, **v = atom->v, **f = atom->f, **omega = atom->omega;
  double **torque = atom->torque;
  double *radius = atom->radius, *rmass = atom->rmass;
  int *mask = atom->mask, *type = atom->type;
  tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  const double dt = update->dt;

  int inum = list->inum, *ilist = list->ilist, *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh, **firsttouch = fix_history->firstflag;
  double **firstshear = fix_history->firstvalue;

  for (int ii = 0; ii < inum; ii++) {
    int i = ilist[ii];
    int *touch = firsttouch[i], *jlist = firstneigh[i], jnum = numneigh[i];
    double *allstate = firstshear[i];
    for (int jj = 0; jj < jnum; jj++) {
      int j = jlist[jj] & NEIGHMASK;
      double *state = &allstate[state_size * jj];
      /* the distance first, in the list's order: most neighbours do not touch (the same
       * numbers as in the bodies' order below: a negation and sums that commute) */
      const double dji[3] = { x[j][0] - x[i][0], x[j][1] - x[i][1], x[j][2] - x[i][2] };
      const double rsum = radius[i] + radius[j];
      const double rsq = dji[0] * dji[0] + dji[1] * dji[1] + dji[2] * dji[2];
      if (rsq >= rsum * rsum && !models.keep_history) {
        /* apart: the contact is virgin again (granucal's default, src/chute.c).  A state is
         * only written where touch is set (below, and FixNeighHistory restores both
         * together), so an untouched one is already zero */
        if (touch[jj]) {
          touch[jj] = 0;
          for (size_t m = 0; m < state_size; m++)
            state[m] = 0.0;
        }
        continue;
      }
      /* body 1 (b1) and body 2 (b2) by type, then atom ID */
      const int swap = type[i] > type[j] || (type[i] == type[j] && tag[i] > tag[j]);
      const int b1 = swap ? j : i, b2 = swap ? i : j;
      const double d[3] = { swap ? -dji[0] : dji[0], swap ? -dji[1] : dji[1],
                            swap ? -dji[2] : dji[2] };
      const double r1 = radius[b1], r2 = radius[b2];
      double dist = sqrt(rsq);
      if (!(dist > 0))
        rank_error(lmp, FLERR, "pair granucal: atoms {} and {} at the same place", tag[i], tag[j]);
      double n[3] = { d[0] / dist, d[1] / dist, d[2] / dist }; /* eq. 4.9 */
      double alpha = rsum - dist;
      double m1 = rmass[b1], m2 = rmass[b2];
      if (fix_rigid) {
        if (mass_rigid[b1] > 0.0)
          m1 = mass_rigid[b1];
        if (mass_rigid[b2] > 0.0)
          m2 = mass_rigid[b2];
      }
      double meff = m1 * m2 / (m1 + m2);
      if (mask[b1] & freeze_group_bit)
        meff = m2;
      if (mask[b2] & freeze_group_bit)
        meff = m1;
      int t1 = type[b1], t2 = type[b2];
      /* only laws that read m_eff are built per reduced mass */
      granucal_law *law = law_for(t1, t2, r1, r2, reads_meff ? meff : 0.0);

      /* the contact point at r1 - alpha/2 from body 1 along n (eq. 4.12-4.13) */
      double a1 = r1 - 0.5 * alpha, a2 = r2 - 0.5 * alpha;
      double l1[3] = { a1 * n[0], a1 * n[1], a1 * n[2] },
             l2[3] = { -a2 * n[0], -a2 * n[1], -a2 * n[2] };
      const double *w1 = omega[b1], *w2 = omega[b2];
      double vc1[3] = { v[b1][0] + w1[1] * l1[2] - w1[2] * l1[1],
                        v[b1][1] + w1[2] * l1[0] - w1[0] * l1[2],
                        v[b1][2] + w1[0] * l1[1] - w1[1] * l1[0] };
      double vc2[3] = { v[b2][0] + w2[1] * l2[2] - w2[2] * l2[1],
                        v[b2][1] + w2[2] * l2[0] - w2[0] * l2[2],
                        v[b2][2] + w2[0] * l2[1] - w2[1] * l2[0] };
      double vrel[3] = { vc2[0] - vc1[0], vc2[1] - vc1[1], vc2[2] - vc1[2] };
      double wrel[3] = { w1[0] - w2[0], w1[1] - w2[1], w1[2] - w2[2] };
      double F[3] = { 0, 0, 0 }, M[3] = { 0, 0, 0 };
      int active = 0;
      const int st = setup ? granucal_setup_force(law, state, scratch.data(), alpha, n, vrel, wrel,
                                                  dt, models.keep_history, F, M, &active)
                           : granucal_contact_step(law, state, alpha, n, vrel, wrel, dt,
                                                   models.keep_history, F, M, nullptr, &active);
      if (st)
        rank_error(lmp, FLERR, "pair granucal: contact of atoms {} and {} (overlap {}): {}",
                   tag[b1], tag[b2], alpha, granucal_strerror(st));
      touch[jj] = alpha > 0.0 || models.keep_history;
      if (!active)
        continue;
      /* forces: F on body 1, -F on body 2; torques lever x force plus the couple */
      double t1v[3] = { l1[1] * F[2] - l1[2] * F[1] + M[0], l1[2] * F[0] - l1[0] * F[2] + M[1],
                        l1[0] * F[1] - l1[1] * F[0] + M[2] };
      double t2v[3] = { -(l2[1] * F[2] - l2[2] * F[1]) - M[0],
                        -(l2[2] * F[0] - l2[0] * F[2]) - M[1],
                        -(l2[0] * F[1] - l2[1] * F[0]) - M[2] };
      for (int e = 0; e < 3; e++) {
        f[b1][e] += F[e];
        torque[b1][e] += t1v[e];
      }
      if (b2 < nlocal || force->newton_pair)
        for (int e = 0; e < 3; e++) {
          f[b2][e] -= F[e];
          torque[b2][e] += t2v[e];
        }
      /* virial: the force on i along x_i - x_j */
      if (evflag) {
        double fi[3] = { swap ? -F[0] : F[0], swap ? -F[1] : F[1], swap ? -F[2] : F[2] };
        double dij[3] = { x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2] };
        ev_tally_xyz(i, j, nlocal, force->newton_pair, 0.0, 0.0, fi[0], fi[1], fi[2], dij[0],
                     dij[1], dij[2]);
      }
    }
  }
  if (vflag_fdotr)
    virial_fdotr_compute();
}

/* compute pair/local: the force the last step left in the contact of i and j, -P n + Q on
 * body 1 (as the set-up, granucal_setup_force; exact when the positions are those of that
 * step, as at the end of a step), without advancing the state.  fforce: the component of the
 * force on i along x_i - x_j, over |x_i - x_j| (LAMMPS's convention: pair/local's "force" is
 * the normal force, positive when repulsive).  svector (p1..p9): the force on i (3), its
 * tangential part Q (3), P, the overlap alpha and |Q|.  A pair that does not touch, or whose
 * history this rank's list does not hold, gives zeros.  No energy. */
double PairGranucal::single(int i, int j, int, int, double rsq, double, double, double &fforce)
{
  fforce = 0.0;
  for (int m = 0; m < single_extra; m++)
    svector[m] = 0.0;
  double *radius = atom->radius;
  const double rsum = radius[i] + radius[j];
  if (rsq >= rsum * rsum || !(rsq > 0.0) || !list)
    return 0.0;
  /* the state: in i's list (neighbour j), else, i being the partner, in j's */
  const double *state = nullptr;
  for (int k = 0; k < 2 && !state; k++) {
    const int owner = k ? j : i, partner = k ? i : j;
    if (owner >= atom->nlocal || !list->numneigh || !list->firstneigh)
      continue; /* own atoms */
    const int nneigh = list->numneigh[owner];
    const int *neigh = list->firstneigh[owner];
    if (!neigh || !fix_history->firstvalue[owner])
      continue;
    for (int jj = 0; jj < nneigh; jj++)
      if ((neigh[jj] & NEIGHMASK) == partner) {
        state = &fix_history->firstvalue[owner][state_size * jj];
        break;
      }
  }
  if (!state)
    return 0.0;
  double **x = atom->x;
  int *type = atom->type;
  tagint *tag = atom->tag;
  const int swap = type[i] > type[j] || (type[i] == type[j] && tag[i] > tag[j]);
  const int b1 = swap ? j : i, b2 = swap ? i : j;
  const double d[3] = { x[b2][0] - x[b1][0], x[b2][1] - x[b1][1], x[b2][2] - x[b1][2] };
  const double dist = sqrt(rsq);
  const double sign = swap ? -1.0 : 1.0; /* the force on i is that on body 1 or its opposite */
  double Fi[3], Qi[3];
  for (int e = 0; e < 3; e++) {
    Qi[e] = sign * state[e];
    Fi[e] = sign * (-state[3] * d[e] / dist + state[e]);
  }
  const double dij[3] = { x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2] };
  fforce = (Fi[0] * dij[0] + Fi[1] * dij[1] + Fi[2] * dij[2]) / rsq;
  for (int e = 0; e < 3; e++) {
    svector[e] = Fi[e];
    svector[3 + e] = Qi[e];
  }
  svector[6] = state[3];
  svector[7] = rsum - dist;
  svector[8] = sqrt(Qi[0] * Qi[0] + Qi[1] * Qi[1] + Qi[2] * Qi[2]);
  return 0.0;
}

double PairGranucal::memory_usage()
{
  return PairGranHookeHistory::memory_usage() + laws.memory_usage();
}
