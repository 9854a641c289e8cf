/* rank_error.h - error->one for the granucal plugin, with the message on standard error first.
 * LAMMPS 29 Sep 2021 built with exceptions (scripts/build-lammps) ends an error->one with
 * MPI_Abort without flushing its screen or log file, so the message of a run whose output
 * goes to a file was lost (seen with the fix's "atom on or beyond the wall"). */
#ifndef LMP_GRANUCAL_RANK_ERROR_H
#define LMP_GRANUCAL_RANK_ERROR_H

#include "error.h"
#include "lammps.h"
#include "fmt/format.h"

#include <cstdio>
#include <mpi.h>
#include <string>

namespace LAMMPS_NS {

template <typename... Args>
[[noreturn]] void rank_error(LAMMPS *lmp, const std::string &file, int line, const char *format,
                             Args &&...args)
{
  std::string msg = fmt::format(format, std::forward<Args>(args)...);
  int me = 0;
  MPI_Comm_rank(lmp->world, &me);
  fprintf(stderr, "ERROR on proc %d: %s\n", me, msg.c_str());
  fflush(stderr);
  lmp->error->one(file, line, msg);
}

} // namespace LAMMPS_NS

#endif
