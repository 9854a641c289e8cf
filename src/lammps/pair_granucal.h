/* pair_granucal.h - LAMMPS pair style "granucal": granucal's contact laws (libgranucal) between
 * finite-size spheres, as a plugin (`plugin load granucalplugin.so`).  A thin adapter: the
 * neighbour list, the per-contact history (FixNeighHistory), frozen particles and rigid-body
 * masses come from LAMMPS's pair gran/hooke/history, which this class extends; the force of a
 * contact is granucal_contact_step, the same code `granucal chute` runs.  See
 * src/lammps/README and granucal-lammps(7). */
#ifndef LMP_PAIR_GRANUCAL_H
#define LMP_PAIR_GRANUCAL_H

#include "granucal_lammps.h"
#include "pair_gran_hooke_history.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class PairGranucal : public PairGranHookeHistory {
public:
  PairGranucal(class LAMMPS *);
  ~PairGranucal() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  void transfer_history(double *, double *) override;
  void write_restart(FILE *) override
  {
  }
  void read_restart(FILE *) override
  {
  }
  void write_restart_settings(FILE *) override
  {
  }
  void read_restart_settings(FILE *) override
  {
  }
  double single(int, int, int, int, double, double, double, double &) override;
  double memory_usage() override;

protected:
  GranucalModels models;
  /* parameters of type pair (I, J), I <= J, body 1 of type I; nullptr if not set */
  std::vector<granucal_params *> pair_params;
  /* laws built on demand, per type pair, pair of radii and (if a sub-model reads it) m_eff */
  GranucalLawCache laws;
  size_t state_size;
  std::vector<double> scratch; /* a copy of a state at set-up (granucal_setup_force) */
  int reads_meff;              /* the models read m_eff: a law per reduced mass */
  granucal_law *law_for(int itype, int jtype, double Ri, double Rj, double meff);
  granucal_params *&params_of(int i, int j);
};

} // namespace LAMMPS_NS

#endif
