/* units.c - unit conversion for CSV headers; see units.h. */
#include "units.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *si;
  const char *unit;
  double f;
} unit_row;

/* "um" and the micro sign (UTF-8 U+00B5 and U+03BC) for micrometres */
static const unit_row rows[] = {
  { "m", "m", 1 },
  { "m", "mm", 1e-3 },
  { "m", "cm", 1e-2 },
  { "m", "um", 1e-6 },
  { "m", "\xc2\xb5m", 1e-6 },
  { "m", "\xce\xbcm", 1e-6 },
  { "N", "N", 1 },
  { "N", "kN", 1e3 },
  { "N", "mN", 1e-3 },
  { "m/s", "m/s", 1 },
  { "m/s", "mm/s", 1e-3 },
  { "m/s", "cm/s", 1e-2 },
  { "kg", "kg", 1 },
  { "kg", "g", 1e-3 },
  { "kg", "mg", 1e-6 },
  { "Pa", "Pa", 1 },
  { "Pa", "kPa", 1e3 },
  { "Pa", "MPa", 1e6 },
  { "Pa", "GPa", 1e9 },
  { "s", "s", 1 },
  { "s", "ms", 1e-3 },
  { "s", "us", 1e-6 },
  { "-", "-", 1 },
  { "-", "1", 1 },
};

int gc_unit_factor(const char *unit, const char *si, double *f, const char **accepted)
{
  static const char *acc_m = "m, mm, cm, um", *acc_N = "N, kN, mN", *acc_v = "m/s, mm/s, cm/s",
                    *acc_kg = "kg, g, mg", *acc_Pa = "Pa, kPa, MPa, GPa", *acc_s = "s, ms, us",
                    *acc_1 = "- or none";
  if (accepted)
    *accepted = strcmp(si, "m") == 0     ? acc_m
                : strcmp(si, "N") == 0   ? acc_N
                : strcmp(si, "m/s") == 0 ? acc_v
                : strcmp(si, "kg") == 0  ? acc_kg
                : strcmp(si, "Pa") == 0  ? acc_Pa
                : strcmp(si, "s") == 0   ? acc_s
                                         : acc_1;
  if (!unit || !*unit) {
    *f = 1.0;
    return 0;
  }
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    if (strcmp(rows[i].si, si) == 0 && strcmp(rows[i].unit, unit) == 0) {
      *f = rows[i].f;
      return 0;
    }
  return -1;
}

int gc_table_unit(const gc_table *t, const char *path, int col, const char *si, const char *expect,
                  double *f, char *msg, size_t n)
{
  const char *u = t->units[col], *acc;
  int bad = gc_unit_factor(u, si, f, &acc);
  if (!bad && !*u && strcmp(si, "-") != 0) {
    snprintf(msg, n,
             "%s:%zu:%d: column '%s' has no unit; expected a header like '%s' (units of "
             "'%s': %s)",
             path, t->header_line, col + 1, t->names[col], expect, t->names[col], acc);
    return GC_EFORMAT;
  }
  if (bad) {
    snprintf(msg, n, "%s:%zu:%d: column '%s' is in [%s]; accepted units: %s", path, t->header_line,
             col + 1, t->names[col], u, acc);
    return GC_EFORMAT;
  }
  return GC_SUCCESS;
}
