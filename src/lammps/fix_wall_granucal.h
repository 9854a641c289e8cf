/* fix_wall_granucal.h - LAMMPS fix "wall/granucal": flat walls whose contacts with finite-size
 * spheres follow a granucal law (libgranucal), as the side walls of `granucal chute` do.  A thin
 * adapter, in the plugin beside pair style granucal: the contact is granucal_contact_step with
 * body 2 a plane (R2 = 0) at rest; each atom keeps one history record per wall (lo and hi), in
 * per-atom arrays that migrate with the atom and are written to restart files.  See
 * src/lammps/README and granucal-lammps(7). */
#ifndef LMP_FIX_WALL_GRANUCAL_H
#define LMP_FIX_WALL_GRANUCAL_H

#include "fix.h"
#include "granucal_lammps.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class FixWallGranucal : public Fix {
public:
  FixWallGranucal(class LAMMPS *, int, char **);
  ~FixWallGranucal() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;

  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;
  double compute_vector(int) override;

protected:
  int axis;           /* 0, 1, 2: the walls are planes x, y or z = const */
  int has_lo, has_hi; /* a wall at lo / at hi (NULL in the fix command: none) */
  double lo, hi;
  GranucalModels models;
  granucal_params *params; /* the parameter file with the fix's KEY VALUE overrides */
  size_t state_size;       /* doubles of history per contact (granucal_law_state_size) */
  int reads_meff;          /* the law reads m_eff: built per atom (or rigid body) mass */
  double **history;        /* per atom: the lo wall's record, then the hi wall's */
  /* laws built on demand per radius and (if a sub-model reads it) m_eff */
  GranucalLawCache laws;
  std::vector<double> scratch; /* a copy of a state at set-up (granucal_setup_force) */
  class Fix *fix_rigid;        /* a rigid-body fix: m_eff is then the body's mass */
  double wall_force[3], wall_force_all[3];
  int force_flag;
  granucal_law *law_for(double R, double meff);
  void contacts(int advance);
};

} // namespace LAMMPS_NS

#endif
