/* chute_out_int.h - the state of the chute's outputs, shared by the files that write them
 * (outputs.c) and that keep them in a checkpoint (record.c); the interface is chute_io.h. */
#ifndef GC_CHUTE_OUT_INT_H
#define GC_CHUTE_OUT_INT_H

#include "../chute_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include <zlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_histogram.h>
#include <gsl/gsl_histogram2d.h>

#include "../drop_sim.h"
#include "../timestep.h"

/* ================================================================ outputs */

/* A velocity profile: cells of a 2-D grid (x-y or x-z) with counts and velocity sums. */
typedef struct {
  int file; /* its file (GC_CHUTE_FILE_PROFILE_*) */
  const char *what;
  int top;         /* 0: grid x-y (side view), 1: grid x-z (top view) */
  double zlo, zhi; /* side views: centres with z in [zlo, zhi) (or the mirror band) */
  int both_walls;  /* side view near the walls: also z in [width - zhi, width - zlo) */
  double ylo, yhi; /* top views: centres with y in [ylo, yhi) */
  gsl_histogram2d *n, *v[3];
} profile;

enum { NPROF = 5 };

struct gc_chute_out {
  gc_chute_run run;
  char *dir;
  char *series_path;
  gc_outfile series; /* series.csv's temporary until its first flush */
  int series_open;   /* series is open */
  int series_placed; /* series.csv is in place: rows go to pend, appended at flushes */
  char *pend;        /* rows not yet appended */
  size_t plen, pcap;
  uint64_t series_bytes; /* bytes of series.csv so far (header, rows), with their CRC-32 */
  uint32_t series_crc;
  long prof_through, force_through; /* samples up to this step continued from a checkpoint
                                     * (-1: none) */
  long k_series, k_vtk, k_ckpt, k_prof;
  long prof_first, prof_last; /* step range of the profile window */
  long force_first, force_last;
  long frames; /* profile samples taken */
  long vtk_frame;
  profile prof[NPROF];
  gsl_histogram *hist;
  double *P; /* force buffer */
  size_t Pcap;
  size_t n_forces, n_over, n_le005, n_le01, force_steps_done;
  double P_over_max;
  long last_series_step;
  double *st, *sv; /* series rows of this run: t [s], vx [m/s] (steady-state test) */
  size_t sn, scap;
};

int chute_write_pvd(const gc_chute_out *o, long last, double t_last, int last_off_grid, char *msg,
                    size_t n);

int chute_out_checkpoint(gc_chute_out *o, const gc_chute *c, char *msg, size_t n);

/* outputs.c */
char *chute_file_path(const char *dir, int file, long frame);
int chute_series_flush(gc_chute_out *o, char *msg, size_t n);
int chute_series_grow(gc_chute_out *o);
int chute_series_put(gc_chute_out *o, const char *b, size_t len);
int chute_series_restart(gc_chute_out *o);
int chute_write_forces(const gc_chute_out *o, double partial, char *msg, size_t n);
int chute_write_profile(const gc_chute_out *o, const profile *p, double partial, char *msg,
                        size_t n);

#endif /* GC_CHUTE_OUT_INT_H */
