/* data_check.h - the sanity layer where measured data meet the material card: what a reader
 * cannot judge alone (it needs R from the card, or the order of the rows) and what a file in
 * the wrong unit or with its columns swapped gives.  fit, compare and data call it after
 * reading a file and loading the card; every refusal names the file, the line, the column and
 * the likely cause.  The thresholds and their reasons (granucal-fit(1)):
 *  - alpha / R <= GC_DATA_ALPHA_R_MAX = 0.1: the contact radius a = sqrt(R alpha) is then
 *    0.32 R, the edge of Hertz theory (it assumes a << R, eq. 3.6-3.12) that every model of
 *    granucal extends; compression tests of grains stay far below (the bundled soybean data
 *    reach 0.007 R).  A file in mm read as m gives 1000 times the approach.
 *  - v_in <= GC_DATA_V_IN_MAX = 20 m/s (a drop from 20.4 m): drop tests of grains are made
 *    from below 2 m (v_in < 6.3 m/s); heights in mm read as m give 50 m/s and more.
 *  - a file without a t column is one loading curve: alpha may not fall by more than
 *    GC_DATA_ALPHA_FALL = 1 % of its largest value (a displacement transducer resolves far
 *    better; an unloading falls by tens of %: a load-unload curve without its t column), and
 *    P may not fall by more than GC_DATA_P_FALL = 10 % of its largest value while alpha grows
 *    (load-cell noise is ~1 %; a larger fall is a swapped column, an unloading or a broken
 *    particle, which no contact model of granucal describes). */
#ifndef GC_DATA_CHECK_H
#define GC_DATA_CHECK_H

#include <stddef.h>

#include "compare.h"
#include "fit.h"

#define GC_DATA_ALPHA_R_MAX 0.1
#define GC_DATA_V_IN_MAX 20.0
#define GC_DATA_ALPHA_FALL 0.01
#define GC_DATA_P_FALL 0.1

/* The compression points and drops of one file, as gc_fit_read_compression and
 * gc_fit_read_drops(_ex) left them in d (d->comp_path, d->drop_path, the columns).  R: the
 * card's radius [m]; R <= 0 (not known) skips the alpha / R test.  GC_EFORMAT with msg. */
int gc_data_check(const gc_fit_data *d, double R, char *msg, size_t msglen);
/* A curve read by gc_curve_read (a compare reference, a fit load path): alpha / R, and
 * without a t column the tests of a loading curve above. */
int gc_curve_check(const gc_curve *c, double R, char *msg, size_t msglen);

#endif
