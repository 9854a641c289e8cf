/* granucal_lammps.h - what pair granucal and fix wall/granucal share: the models' keywords, the
 * parameter file with its KEY VALUE overrides, building a law for the radii of a contact, and
 * the force a contact's state holds at the set-up of a run. */
#ifndef LMP_GRANUCAL_LAMMPS_H
#define LMP_GRANUCAL_LAMMPS_H

#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "granucal.h"
}

namespace LAMMPS_NS {

/* The sub-models of a law ("": the parameter file's "model" / "tfd", else ep / ep) and whether
 * a contact keeps its history on separation. */
struct GranucalModels {
  std::string normal, damping, tangential, rolling, twisting;
  int keep_history = 0;
  /* KEY VALUE if KEY is one of the models' keywords (normal, damping, tangential, rolling,
   * twisting, keep_history; a damping composes with the normal model): 1, or -1 with why set
   * when VALUE is not allowed; 0 if KEY is not one. */
  int set(const std::string &key, const std::string &value, std::string &why);
  /* The law of parameters p between radii R1 and R2 (0: a plane), with m_eff = meff if
   * meff > 0.  A granucal status; msg says why. */
  int build(const granucal_params *p, double R1, double R2, double meff, granucal_law **law,
            char *msg, size_t msglen) const;
};

/* The laws a style has built, kept for its run: one per type pair, pair of radii and m_eff (0
 * when the models do not read it), found through a hash table on the key's bits, so that a
 * continuous distribution of radii (a law per contacting pair) costs one probe per contact.
 * The last one found is tried first, since neighbouring contacts mostly share it.  Owns the
 * laws. */
class GranucalLawCache {
public:
  GranucalLawCache() = default;
  GranucalLawCache(const GranucalLawCache &) = delete;
  GranucalLawCache &operator=(const GranucalLawCache &) = delete;
  ~GranucalLawCache()
  {
    clear();
  }
  /* the law of the key, or nullptr if none was added */
  granucal_law *find(int itype, int jtype, double R1, double R2, double meff)
  {
    if (last && last->itype == itype && last->jtype == jtype && last->R1 == R1 && last->R2 == R2 &&
        last->meff == meff)
      return last->law;
    return find_slot(itype, jtype, R1, R2, meff);
  }
  void add(int itype, int jtype, double R1, double R2, double meff, granucal_law *law);
  /* frees every law (stale coefficients) */
  void clear();
  size_t size() const
  {
    return count;
  }
  double memory_usage() const;

private:
  struct Key {
    int itype, jtype;
    double R1, R2, meff;
    granucal_law *law; /* nullptr: an empty slot */
  };
  /* open addressing, linear probing; the capacity a power of two, at most half full */
  std::vector<Key> slots;
  size_t count = 0;
  const Key *last = nullptr;
  static size_t hash(int itype, int jtype, double R1, double R2, double meff);
  granucal_law *find_slot(int itype, int jtype, double R1, double R2, double meff);
  void insert(const Key &k);
};

/* *p (new) from the parameter file path and the KEY VALUE overrides, in order; body 2 of body
 * 1's material when neither gives E2 (granucal_params_like_bodies).  A granucal status; msg
 * says why (*p is then freed and null). */
int granucal_params_load(granucal_params **p, const char *path,
                         const std::vector<std::pair<std::string, double>> &overrides, char *msg,
                         size_t msglen);

/* The force the last step left in a contact's state, without advancing it (the set-up at the
 * start of a run, when the positions are those of that step): F = -P n + Q on body 1, and the
 * rolling / twisting couple M from one step on a copy of the state in scratch (state_size
 * doubles); an overlap whose state holds no normal force (new at this set-up) gets the law's
 * force at the overlap from one step on a copy without tangential travel.  *active: 1 if a
 * force acts.  A granucal status (of a step on the copy). */
int granucal_setup_force(const granucal_law *law, const double *state, double *scratch,
                         double alpha, const double n[3], const double vrel[3],
                         const double wrel[3], double dt, int keep_history, double F[3],
                         double M[3], int *active);

} // namespace LAMMPS_NS

#endif
