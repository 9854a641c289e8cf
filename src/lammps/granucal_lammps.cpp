/* granucal_lammps.cpp - what pair granucal and fix wall/granucal share (granucal_lammps.h). */
#include "granucal_lammps.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace LAMMPS_NS;

int GranucalModels::set(const std::string &key, const std::string &value, std::string &why)
{
  if (key == "normal")
    normal = value;
  else if (key == "damping")
    damping = value;
  else if (key == "tangential")
    tangential = value;
  else if (key == "rolling")
    rolling = value;
  else if (key == "twisting")
    twisting = value;
  else if (key == "keep_history") {
    if (value != "yes" && value != "no") {
      why = "keep_history yes or no, not '" + value + "'";
      return -1;
    }
    keep_history = value == "yes";
  } else
    return 0;
  return 1;
}

int GranucalModels::build(const granucal_params *p, double R1, double R2, double meff,
                          granucal_law **law, char *msg, size_t msglen) const
{
  granucal_params *q = nullptr;
  if (granucal_params_new(&q) || granucal_params_copy(q, p)) {
    granucal_params_free(q);
    snprintf(msg, msglen, "out of memory");
    return GRANUCAL_ENOMEM;
  }
  int st = granucal_params_set(q, "R1", R1, msg, msglen);
  if (!st)
    st = granucal_params_set(q, "R2", R2, msg, msglen);
  if (!st && meff > 0)
    st = granucal_params_set(q, "m_eff", meff, msg, msglen);
  auto name = [](const std::string &s) { return s.empty() ? nullptr : s.c_str(); };
  /* a damping composes with the normal model as "NORMAL+DAMPING" (granucal_law_new) */
  std::string composed = damping.empty() ? normal : normal + "+" + damping;
  if (!st)
    st = granucal_law_new(law, q, name(composed), name(tangential), name(rolling), name(twisting),
                          msg, msglen);
  granucal_params_free(q);
  return st;
}

int LAMMPS_NS::granucal_params_load(granucal_params **p, const char *path,
                                    const std::vector<std::pair<std::string, double>> &overrides,
                                    char *msg, size_t msglen)
{
  *p = nullptr;
  if (granucal_params_new(p)) {
    snprintf(msg, msglen, "out of memory");
    return GRANUCAL_ENOMEM;
  }
  int st = granucal_params_read(*p, path, msg, msglen);
  int e2_given = 0;
  for (size_t k = 0; !st && k < overrides.size(); k++) {
    e2_given |= overrides[k].first == "E2";
    st = granucal_params_set(*p, overrides[k].first.c_str(), overrides[k].second, msg, msglen);
  }
  if (st) {
    granucal_params_free(*p);
    *p = nullptr;
    return st;
  }
  double E2 = 0.0;
  granucal_params_get(*p, "E2", &E2);
  if (!e2_given && E2 == 0.0)
    granucal_params_like_bodies(*p);
  return GRANUCAL_SUCCESS;
}

int LAMMPS_NS::granucal_setup_force(const granucal_law *law, const double *state, double *scratch,
                                    double alpha, const double n[3], const double vrel[3],
                                    const double wrel[3], double dt, int keep_history, double F[3],
                                    double M[3], int *active)
{
  const size_t size = granucal_law_state_size(law);
  /* the state layout of granucal.h: Q on body 1 in [0..2], P in [3] */
  if (state[3] == 0.0 && alpha > 0.0) {
    /* an overlap whose state holds no normal force: a contact new at this set-up (the
     * overlaps the first run starts with), or one unloaded to P = 0.  Its force at the present
     * overlap is the law's: one step on a copy with the normal part of the relative velocity
     * (the normal damping's), which adds no tangential travel.  Without it the first half-step
     * would miss these contacts' forces (a sphere placed at rest on a wall at its static overlap
     * then oscillates by (g dt / 2) / omega_n: 5e-10 m in tests/lammps.sh, section 11). */
    memcpy(scratch, state, size * sizeof *scratch);
    const double vn = vrel[0] * n[0] + vrel[1] * n[1] + vrel[2] * n[2];
    const double vnn[3] = { vn * n[0], vn * n[1], vn * n[2] };
    return granucal_contact_step(law, scratch, alpha, n, vnn, wrel, dt, keep_history, F, M, nullptr,
                                 active);
  }
  for (int e = 0; e < 3; e++) {
    F[e] = -state[3] * n[e] + state[e];
    M[e] = 0.0;
  }
  *active = state[3] != 0.0 || state[0] != 0.0 || state[1] != 0.0 || state[2] != 0.0;
  if (*active && granucal_law_rotational(law)) {
    /* the couple is not part of the stored state: one step on a copy */
    memcpy(scratch, state, size * sizeof *scratch);
    double Fs[3];
    return granucal_contact_step(law, scratch, alpha, n, vrel, wrel, dt, keep_history, Fs, M,
                                 nullptr, nullptr);
  }
  return GRANUCAL_SUCCESS;
}

/* splitmix64's finaliser over the key's bits: radii that differ in the last bit (a continuous
 * distribution) land in different slots */
size_t GranucalLawCache::hash(int itype, int jtype, double R1, double R2, double meff)
{
  uint64_t b[3];
  memcpy(&b[0], &R1, sizeof R1);
  memcpy(&b[1], &R2, sizeof R2);
  memcpy(&b[2], &meff, sizeof meff);
  uint64_t h = ((uint64_t)(uint32_t)itype << 32) ^ (uint32_t)jtype;
  for (int k = 0; k < 3; k++) {
    h ^= b[k] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
  }
  return (size_t)h;
}

granucal_law *GranucalLawCache::find_slot(int itype, int jtype, double R1, double R2, double meff)
{
  if (slots.empty())
    return nullptr;
  const size_t mask = slots.size() - 1;
  for (size_t q = hash(itype, jtype, R1, R2, meff) & mask;; q = (q + 1) & mask) {
    const Key &k = slots[q];
    if (!k.law)
      return nullptr;
    if (k.itype == itype && k.jtype == jtype && k.R1 == R1 && k.R2 == R2 && k.meff == meff) {
      last = &k;
      return k.law;
    }
  }
}

void GranucalLawCache::insert(const Key &k)
{
  const size_t mask = slots.size() - 1;
  size_t q = hash(k.itype, k.jtype, k.R1, k.R2, k.meff) & mask;
  while (slots[q].law)
    q = (q + 1) & mask;
  slots[q] = k;
  last = &slots[q];
}

void GranucalLawCache::add(int itype, int jtype, double R1, double R2, double meff,
                           granucal_law *law)
{
  if (2 * (count + 1) > slots.size()) {
    std::vector<Key> old;
    old.swap(slots);
    slots.assign(old.empty() ? 64 : 2 * old.size(), Key{ 0, 0, 0.0, 0.0, 0.0, nullptr });
    for (const Key &k : old)
      if (k.law)
        insert(k);
  }
  insert({ itype, jtype, R1, R2, meff, law });
  count++;
}

void GranucalLawCache::clear()
{
  for (auto &k : slots)
    granucal_law_free(k.law);
  slots.clear();
  count = 0;
  last = nullptr;
}

double GranucalLawCache::memory_usage() const
{
  return (double)slots.size() * sizeof(Key); /* the laws themselves are libgranucal's */
}
