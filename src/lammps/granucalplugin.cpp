/* granucalplugin.cpp - registers the pair style "granucal" and the fix "wall/granucal" with
 * LAMMPS (`plugin load`). */
#include "lammpsplugin.h"
#include "version.h"

#include "fix_wall_granucal.h"
#include "pair_granucal.h"

using namespace LAMMPS_NS;

static Pair *granucal_creator(LAMMPS *lmp)
{
  return new PairGranucal(lmp);
}

static Fix *wall_granucal_creator(LAMMPS *lmp, int argc, char **argv)
{
  return new FixWallGranucal(lmp, argc, argv);
}

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  lammpsplugin_t plugin;
  auto register_plugin = (lammpsplugin_regfunc)regfunc;
  plugin.version = LAMMPS_VERSION;
  plugin.style = "pair";
  plugin.name = "granucal";
  plugin.info = "granucal contact laws (Vu-Quoc & Zhang elasto-plastic and others) via libgranucal";
  plugin.author = "granucal";
  plugin.creator.v1 = (lammpsplugin_factory1 *)&granucal_creator;
  plugin.handle = handle;
  (*register_plugin)(&plugin, lmp);

  plugin.style = "fix";
  plugin.name = "wall/granucal";
  plugin.info = "flat walls with granucal contact laws via libgranucal";
  plugin.creator.v2 = (lammpsplugin_factory2 *)&wall_granucal_creator;
  (*register_plugin)(&plugin, lmp);
}
