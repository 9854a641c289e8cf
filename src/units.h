/* units.h - the units granucal accepts in CSV headers ("alpha [um]") and their SI factors: the
 * one units table of every data-file reader (compression, drops, load paths, curves). */
#ifndef GC_UNITS_H
#define GC_UNITS_H

#include <stddef.h>

#include "gc_io.h"

/* Factor f such that value [unit] * f = value [si], for si one of m, N, m/s, kg, Pa, s, "-".
 * An empty unit is taken as si (f = 1).  Returns 0 and sets *f, or -1 when the unit is not one
 * of that quantity's (then *accepted lists the accepted spellings). */
int gc_unit_factor(const char *unit, const char *si, double *f, const char **accepted);

/* The factor from the unit of column col of table t (read from path) to si.  A column of a
 * dimensioned quantity (si not "-") must carry its unit: a header without one ("approach,P")
 * is refused, since a file in mm or kN would otherwise be read as SI without a word.  Errors
 * (GC_EFORMAT) name path:header line:column and show `expect`, a header that reads (e.g.
 * "alpha [m],P [N]"), and the accepted units. */
int gc_table_unit(const gc_table *t, const char *path, int col, const char *si, const char *expect,
                  double *f, char *msg, size_t msglen);

#endif
