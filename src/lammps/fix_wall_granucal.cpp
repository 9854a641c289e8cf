/* fix_wall_granucal.cpp - flat walls with granucal's contact laws (see fix_wall_granucal.h).
 *
 *   fix ID group wall/granucal PARAMFILE [KEY VALUE]... [normal M] [damping M] [tangential M]
 *       [rolling M] [twisting M] [keep_history yes|no] xplane|yplane|zplane LO HI
 *
 * LO or HI may be NULL (no wall there).  Body 1 is the sphere, body 2 the wall: a plane (R2 = 0)
 * at rest, of the file's E2, nu2, sY2 (or the sphere's material when the file gives no E2, as
 * pair_coeff granucal).  The contact is the one `granucal chute` computes for its side walls
 * (src/chute.c, wall_forces): normal n from the sphere centre to the wall, overlap alpha = R -
 * distance, the contact point at R - alpha/2 from the centre along n (eq. 4.12-4.13), relative
 * velocity that of the wall's point (0) minus the sphere's point, relative spin the sphere's. */
#include "fix_wall_granucal.h"
#include "rank_error.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neighbor.h"
#include "update.h"
#include "utils.h"

#include <cmath>
#include <cstring>
#include <mpi.h>

using namespace LAMMPS_NS;
using namespace FixConst;

FixWallGranucal::FixWallGranucal(LAMMPS *lmp, int narg, char **arg)
    : Fix(lmp, narg, arg), axis(-1), has_lo(0), has_hi(0), lo(0.0), hi(0.0), params(nullptr),
      state_size(0), reads_meff(0), history(nullptr), fix_rigid(nullptr), force_flag(0)
{
  const char *usage = "fix wall/granucal PARAMFILE [KEY VALUE]... [normal M] [damping M] "
                      "[tangential M] [rolling M] [twisting M] [keep_history yes|no] "
                      "xplane|yplane|zplane LO HI";
  if (narg < 7)
    error->all(FLERR, "Illegal fix wall/granucal command: {}", usage);
  if (!atom->sphere_flag)
    error->all(FLERR, "fix wall/granucal requires atom style sphere");

  /* the models' keywords and the parameter file's overrides, in any order, before the walls */
  std::vector<std::pair<std::string, double>> overrides;
  int a = 4;
  for (; a < narg; a += 2) {
    std::string key = arg[a];
    if (key == "xplane" || key == "yplane" || key == "zplane")
      break;
    if (a + 1 >= narg)
      error->all(FLERR, "fix wall/granucal: keyword '{}' without a value ({})", key, usage);
    std::string why;
    int known = models.set(key, arg[a + 1], why);
    if (known < 0)
      error->all(FLERR, "fix wall/granucal: {}", why);
    if (known)
      continue;
    /* a parameter of the file (granucal-params(5)), checked against its range there */
    if (key == "R" || key == "R1" || key == "R2" || key == "m_eff")
      error->all(FLERR, "fix wall/granucal: {} comes from the atoms and the wall, not the command",
                 key);
    overrides.emplace_back(key, utils::numeric(FLERR, arg[a + 1], false, lmp));
  }
  if (a + 3 != narg)
    error->all(FLERR, "Illegal fix wall/granucal command (the wall comes last): {}", usage);
  axis = arg[a][0] - 'x';
  if (strcmp(arg[a + 1], "NULL") != 0)
    has_lo = 1, lo = utils::numeric(FLERR, arg[a + 1], false, lmp);
  if (strcmp(arg[a + 2], "NULL") != 0)
    has_hi = 1, hi = utils::numeric(FLERR, arg[a + 2], false, lmp);
  if (!has_lo && !has_hi)
    error->all(FLERR, "fix wall/granucal: both walls NULL");
  if (has_lo && has_hi && !(lo < hi))
    error->all(FLERR, "fix wall/granucal: LO {} must be below HI {}", lo, hi);
  if (domain->periodicity[axis])
    error->all(FLERR, "fix wall/granucal: the walls' axis {} is periodic (boundary p)", arg[a]);
  char msg[512];
  if (granucal_params_load(&params, arg[3], overrides, msg, sizeof msg))
    error->all(FLERR, "fix wall/granucal: {}", msg);

  /* a probe law: the models exist, the parameters suit them, and the history's size (every
   * rank reads the same command: error->all) */
  granucal_law *probe = nullptr;
  if (models.build(params, 1e-3, 0.0, 1e-6, &probe, msg, sizeof msg))
    error->all(FLERR, "fix wall/granucal: {}", msg);
  state_size = granucal_law_state_size(probe);
  scratch.resize(state_size);
  /* m_eff, when the law reads it, is the atom's (or its rigid body's) mass, not the file's */
  reads_meff = granucal_law_reads(probe, "m_eff");
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "granucal: fix wall/granucal {}: {} ({} doubles of history per wall contact)\n",
                   id, granucal_law_name(probe), state_size);
  granucal_law_free(probe);

  /* the history is per atom: it migrates with the atom and goes into restart files */
  restart_peratom = 1;
  create_attribute = 1;
  maxexchange = 2 * (int)state_size;
  vector_flag = 1;
  size_vector = 3;
  global_freq = 1;
  extvector = 1;
  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nlocal; i++)
    set_arrays(i);
  wall_force[0] = wall_force[1] = wall_force[2] = 0.0;
}

FixWallGranucal::~FixWallGranucal()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(history);
  granucal_params_free(params);
}

int FixWallGranucal::setmask()
{
  return POST_FORCE;
}

void FixWallGranucal::init()
{
  /* the walls act in post_force, which neither rRESPA nor a minimisation calls: refused rather
   * than letting atoms pass through them */
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, "fix wall/granucal: not with run_style respa (the walls would not act)");
  if (update->whichflag == 2)
    error->all(FLERR, "fix wall/granucal: not with minimize (the walls would not act)");
  /* m_eff of an atom of a rigid body is the body's mass, as in LAMMPS's wall/gran */
  fix_rigid = nullptr;
  for (int i = 0; i < modify->nfix; i++)
    if (modify->fix[i]->rigid_flag) {
      fix_rigid = modify->fix[i];
      break;
    }
}

/* The forces the histories left, without advancing them: setup runs at the start of every
 * `run`, and a run split in two must step each contact as often as one run (as LAMMPS's
 * granular styles do). */
void FixWallGranucal::setup(int /*vflag*/)
{
  contacts(0);
}

void FixWallGranucal::post_force(int /*vflag*/)
{
  contacts(1);
}

granucal_law *FixWallGranucal::law_for(double R, double meff)
{
  granucal_law *law = laws.find(0, 0, R, 0.0, meff);
  if (law)
    return law;
  char msg[512];
  /* a radius or mass met on this rank only: error->one (rank_error) */
  if (models.build(params, R, 0.0, meff, &law, msg, sizeof msg))
    rank_error(lmp, FLERR, "fix wall/granucal {}, radius {}: {}", id, R, msg);
  laws.add(0, 0, R, 0.0, meff, law);
  return law;
}

void FixWallGranucal::contacts(int advance)
{
  double **x = atom->x, **v = atom->v, **f = atom->f, **omega = atom->omega;
  double **torque = atom->torque;
  double *radius = atom->radius, *rmass = atom->rmass;
  int *mask = atom->mask;
  tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  const double dt = update->dt;
  int *body = nullptr;
  double *mass_body = nullptr;
  if (fix_rigid) {
    int tmp;
    body = (int *)fix_rigid->extract("body", tmp);
    mass_body = (double *)fix_rigid->extract("masstotal", tmp);
  }
  force_flag = 0;
  wall_force[0] = wall_force[1] = wall_force[2] = 0.0;

  for (int i = 0; i < nlocal; i++) {
    if (!(mask[i] & groupbit))
      continue;
    for (int side = 0; side < 2; side++) {
      if (side == 0 ? !has_lo : !has_hi)
        continue;
      double *state = history[i] + side * state_size;
      const double r = radius[i];
      /* distance from the centre to the wall; n from the sphere to the wall */
      double d = side == 0 ? x[i][axis] - lo : hi - x[i][axis];
      double alpha = r - d;
      /* keep_history: the record is kept while the sphere is within the neighbour skin of the
       * wall (as granucal chute's wall records and a pair in the neighbour list), else reset */
      const int keep = models.keep_history && alpha > -neighbor->skin;
      /* a sphere farther than a radius and two skins from the wall has a virgin record while
       * a run goes on: the record was reset at the step it left the contact (or the skin),
       * and no sphere travels that far in a step.  Skipping the scan of its record saves
       * reading 2 state_size doubles per atom and step; the set-up scans every record
       * (atoms may have been moved between runs) */
      if (advance && alpha < -(r + 2.0 * neighbor->skin))
        continue;
      if (!(alpha > 0.0)) {
        int used = 0;
        for (size_t m = 0; m < state_size; m++)
          used |= state[m] != 0.0;
        if (!used)
          continue; /* apart, a virgin record */
        if (!keep) {
          /* apart: the contact is virgin again (granucal's default, src/chute.c) */
          for (size_t m = 0; m < state_size; m++)
            state[m] = 0.0;
          continue;
        }
      }
      if (!(d > 0.0))
        rank_error(lmp, FLERR, "fix wall/granucal: atom {} (centre {}) on or beyond the wall at {}",
                   tag[i], x[i][axis], side == 0 ? lo : hi);
      double n[3] = { 0.0, 0.0, 0.0 };
      n[axis] = side == 0 ? -1.0 : 1.0;
      double meff = rmass[i];
      if (body && body[i] >= 0)
        meff = mass_body[body[i]];
      /* only laws that read m_eff are built per mass */
      granucal_law *law = law_for(r, reads_meff ? meff : 0.0);
      /* the contact point at r - alpha/2 from the centre along n (eq. 4.12-4.13) */
      double a1 = r - 0.5 * alpha;
      double l1[3] = { a1 * n[0], a1 * n[1], a1 * n[2] };
      const double *w1 = omega[i];
      double vrel[3] = { -(v[i][0] + w1[1] * l1[2] - w1[2] * l1[1]),
                         -(v[i][1] + w1[2] * l1[0] - w1[0] * l1[2]),
                         -(v[i][2] + w1[0] * l1[1] - w1[1] * l1[0]) };
      double wrel[3] = { w1[0], w1[1], w1[2] }; /* the wall does not turn */
      double F[3] = { 0, 0, 0 }, M[3] = { 0, 0, 0 };
      int active = 0;
      const int st = advance ? granucal_contact_step(law, state, alpha, n, vrel, wrel, dt, keep, F,
                                                     M, nullptr, &active)
                             : granucal_setup_force(law, state, scratch.data(), alpha, n, vrel,
                                                    wrel, dt, keep, F, M, &active);
      if (st)
        rank_error(lmp, FLERR,
                   "fix wall/granucal: contact of atom {} with the wall at {} (overlap {}): {}",
                   tag[i], side == 0 ? lo : hi, alpha, granucal_strerror(st));
      if (!active)
        continue;
      f[i][0] += F[0], f[i][1] += F[1], f[i][2] += F[2];
      torque[i][0] += l1[1] * F[2] - l1[2] * F[1] + M[0];
      torque[i][1] += l1[2] * F[0] - l1[0] * F[2] + M[1];
      torque[i][2] += l1[0] * F[1] - l1[1] * F[0] + M[2];
      wall_force[0] += F[0], wall_force[1] += F[1], wall_force[2] += F[2];
    }
  }
}

/* the force of the walls on the group [N], component n */
double FixWallGranucal::compute_vector(int n)
{
  if (!force_flag) {
    MPI_Allreduce(wall_force, wall_force_all, 3, MPI_DOUBLE, MPI_SUM, world);
    force_flag = 1;
  }
  return wall_force_all[n];
}

double FixWallGranucal::memory_usage()
{
  return (double)atom->nmax * 2 * state_size * sizeof(double);
}

void FixWallGranucal::grow_arrays(int nmax)
{
  memory->grow(history, nmax, 2 * (int)state_size, "wall/granucal:history");
}

void FixWallGranucal::copy_arrays(int i, int j, int /*delflag*/)
{
  for (size_t m = 0; m < 2 * state_size; m++)
    history[j][m] = history[i][m];
}

/* a new atom: no contact yet */
void FixWallGranucal::set_arrays(int i)
{
  for (size_t m = 0; m < 2 * state_size; m++)
    history[i][m] = 0.0;
}

int FixWallGranucal::pack_exchange(int i, double *buf)
{
  for (size_t m = 0; m < 2 * state_size; m++)
    buf[m] = history[i][m];
  return 2 * (int)state_size;
}

int FixWallGranucal::unpack_exchange(int nlocal, double *buf)
{
  for (size_t m = 0; m < 2 * state_size; m++)
    history[nlocal][m] = buf[m];
  return 2 * (int)state_size;
}

/* restart: the count of values (this one included), then the values */
int FixWallGranucal::pack_restart(int i, double *buf)
{
  buf[0] = 2 * state_size + 1;
  for (size_t m = 0; m < 2 * state_size; m++)
    buf[m + 1] = history[i][m];
  return 2 * (int)state_size + 1;
}

void FixWallGranucal::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  /* skip the values of the fixes before this one */
  int m = 0;
  for (int k = 0; k < nth; k++)
    m += static_cast<int>(extra[nlocal][m]);
  /* a fix given again after read_restart with other models has records of another size */
  if (static_cast<int>(extra[nlocal][m]) != 2 * (int)state_size + 1)
    rank_error(lmp, FLERR,
               "fix wall/granucal {}: the restart file's wall history has {} doubles per atom, "
               "these models {} (the same models as the run that wrote it are needed)",
               id, static_cast<int>(extra[nlocal][m]) - 1, 2 * state_size);
  m++;
  for (size_t k = 0; k < 2 * state_size; k++)
    history[nlocal][k] = extra[nlocal][m++];
}

int FixWallGranucal::size_restart(int /*nlocal*/)
{
  return 2 * (int)state_size + 1;
}

int FixWallGranucal::maxsize_restart()
{
  return 2 * (int)state_size + 1;
}
