/* units.h - the units granucal accepts in CSV headers ("alpha [um]") and their SI factors. */
#ifndef GC_UNITS_H
#define GC_UNITS_H

/* Factor f such that value [unit] * f = value [si], for si one of m, N, m/s, kg, Pa, s, "-".
 * An empty unit is taken as si (f = 1).  Returns 0 and sets *f, or -1 when the unit is not one
 * of that quantity's (then *accepted lists the accepted spellings). */
int gc_unit_factor(const char *unit, const char *si, double *f, const char **accepted);

#endif
