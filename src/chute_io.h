/* chute_io.h - input and output of `granucal chute` (chapter 9 flow): the chute card (a
 * "key = value" file, man page granucal-chute(5)) read into a gc_chute_cfg plus the run and
 * output settings, and the output files of a run: time series, velocity profiles averaged over
 * a time window (fig. 9.6-9.9), contact-force statistics (fig. 9.11-9.14), VTK snapshots and
 * checkpoints.  Every output file is written atomically (gc_outfile).  No global state. */
#ifndef GC_CHUTE_IO_H
#define GC_CHUTE_IO_H

#include <stddef.h>
#include <stdio.h>

#include "chute.h"
#include "chute_stats.h"
#include "gc_io.h"
#include "gc_outputs.h"

enum { GC_SHAPE_KIND_ELLIPSOID4 = 0, GC_SHAPE_KIND_SPHERE = 1, GC_SHAPE_KIND_CLUSTER = 2 };

#define GC_CHUTE_PATH_MAX 4096
/* memory bounds checked before any allocation [bytes] */
#define GC_CHUTE_PROFILE_BYTES_MAX (512.0 * 1024 * 1024)
#define GC_CHUTE_BYTES_MAX (4.0 * 1024 * 1024 * 1024)
/* gravity above 100 g (981 m/s^2) is refused: no chute flow runs there, and v_ref and the time
 * step derived from it would be meaningless */
#define GC_CHUTE_GRAVITY_MAX 1000.0
/* threads above this multiple of the processors are refused */
#define GC_CHUTE_THREADS_PER_PROC 4
/* the cost of one step per sphere of the chute, for the estimated duration of a run that the
 * step-count limit refuses: tiny.chute (96 spheres, 15778 steps, 1 thread) takes 0.07 s of
 * processor time and 0.5 s on a loaded machine, 5e-8 to 3e-7 s per sphere and step [s] */
#define GC_CHUTE_SEC_PER_SPHERE_STEP 1e-7

/* Everything a chute card defines. */
typedef struct {
  gc_chute_cfg sim; /* the simulator's configuration (laws per material pair) */
  /* particles */
  char params_path[GC_CHUTE_PATH_MAX]; /* particle parameter file, resolved */
  gc_params particle;                  /* its parameters (after the P_Y -> sY conversion) */
  gc_card_extra particle_x;            /* its model names, rho, m */
  int shape_kind;                      /* GC_SHAPE_KIND_* */
  double PY_file;                      /* P_Y of the parameter file [N] (0 if not given) */
  int sY_derived; /* 1: sY was derived from the file's P_Y (eq. 6.19 inverted) */
  char wall_path[GC_CHUTE_PATH_MAX], bead_path[GC_CHUTE_PATH_MAX]; /* "" if not used */
  char effective[16384]; /* the effective card: every key set by the card or --set, with
                               * resolved paths, as key = value lines (written to the output
                               * directory as effective.chute) */
  char physics[4096];    /* the keys of the physics with a value (set or default), as
                               * key = value lines: recorded in checkpoints, and a resumed run
                               * must have the same (gc_chute_record_check) */
  char cluster_path[GC_CHUTE_PATH_MAX]; /* "" if not used */
  /* time stepping */
  double t_end;           /* [s] */
  long n_steps;           /* steps to t_end: round(t_end / dt) */
  int ntcol;              /* steps per contact duration (0 if dt was given) */
  double v_ref;           /* impact speed for the Hertz contact time [m/s] */
  double t_contact;       /* shortest Hertz contact duration of the three pairs [s] */
  int dt_check;           /* GC_DT_OK or GC_DT_WARN (timestep.h) */
  char dt_note[400];      /* the warning when GC_DT_WARN */
  char profile_note[200]; /* the warning when the profile window starts after t_end */
  /* outputs: intervals [s] (0: none), rounded to whole steps */
  double series_interval, vtk_interval, checkpoint_interval;
  double profile_start, profile_end, profile_interval, profile_cell, profile_height;
  double wall_band, centre_band;                       /* [m] */
  double surface_lo, surface_hi, bottom_lo, bottom_hi; /* y bands of the top views [m] */
  double forces_time; /* force statistics over the forces_steps steps ending here [s] */
  long forces_steps, forces_bins;
  double forces_max;    /* histogram range [0, forces_max] [N] */
  double steady_window; /* trailing window of the steady-state test [s] */
  long steady_batches;  /* its batch means */
} gc_chute_run;

/* Read a chute card and apply the overrides sets[i] ("KEY=VALUE", in order, after the file),
 * then load the particle parameter file, the particle shape and the material cards and derive
 * the laws' parameters and the time step.  Errors: GC_EFORMAT/GC_EINVAL/GC_EIO with a message
 * naming file:line:column (or "--set KEY") and the allowed range.  A NULL path reads no file
 * (all keys from sets).  Relative paths in the file are taken from the file's directory,
 * those in sets from the working directory. */
int gc_chute_run_load(const char *path, char *const *sets, size_t nsets, gc_chute_run *run,
                      char *msg, size_t msglen);
/* Notes on what gc_chute_run_load derived (time step, P_Y -> sY), one per line. */
void gc_chute_run_describe(const gc_chute_run *run, FILE *f);
/* The keys of the chute card with units, ranges and defaults (for --help). */
void gc_chute_print_keys(FILE *f);

/* The files a run writes in its output directory, one row each of the outputs table
 * (gc_chute_output_at).  Every writer takes its file's name from the table
 * (gc_chute_file_name) and the output guard reads the same table (gc_chute_out_plan), so
 * that no output escapes the guard; granucal-chute(5) lists the same rows (OUTPUTS, Files).
 * GC_CHUTE_FILE_PARTICLES is a printf format of the snapshot's number. */
enum {
  GC_CHUTE_FILE_PROVENANCE,
  GC_CHUTE_FILE_EFFECTIVE,
  GC_CHUTE_FILE_SERIES,
  GC_CHUTE_FILE_PROFILE_SIDE_WALL,
  GC_CHUTE_FILE_PROFILE_SIDE_ALL,
  GC_CHUTE_FILE_PROFILE_SIDE_CENTRE,
  GC_CHUTE_FILE_PROFILE_TOP_SURFACE,
  GC_CHUTE_FILE_PROFILE_TOP_BOTTOM,
  GC_CHUTE_FILE_FORCES,
  GC_CHUTE_FILE_BOTTOM_VTK,
  GC_CHUTE_FILE_PARTICLES,
  GC_CHUTE_FILE_PVD,
  GC_CHUTE_FILE_CHECKPOINT,
  GC_CHUTE_NFILES
};
const char *gc_chute_file_name(int file);
/* One output: its file name and what it holds (the text of granucal-chute(5)). */
typedef struct {
  const char *name;
  const char *what;
} gc_chute_output;
const gc_chute_output *gc_chute_output_at(int file); /* NULL outside 0 .. GC_CHUTE_NFILES - 1 */
/* The outputs table for --help: each file's name, then what it holds from column indent
 * (wrapped at 79 columns). */
void gc_chute_print_outputs(FILE *f, int indent);

/* The files a run reads: the parameter file, the material cards and the cluster file that the
 * card names and the run uses (resolved paths).  Returns their number (<= GC_CHUTE_NINPUTS). */
enum { GC_CHUTE_NINPUTS = 4 };
size_t gc_chute_run_inputs(const gc_chute_run *run, const char *ins[GC_CHUTE_NINPUTS]);

/* Add to plan every file a run writes in dir (the directory, its lock and the table above) and
 * every file it reads: the card, gc_chute_run_inputs and resume, the checkpoint it resumes
 * from, which only the run's own checkpoint may replace (it is read whole first). */
void gc_chute_out_plan(const gc_chute_run *run, const char *card, const char *resume,
                       const char *dir, gc_outplan *plan);

/* Output files of a run, in an existing directory. */
typedef struct gc_chute_out gc_chute_out;

/* Open the outputs (series.csv is written as the run goes; the other files at their times or at
 * the end).  c is the chute at the first step of this run (t = 0 or the resumed time).
 *
 * The record of the run (series.csv, the profiles, forces.csv) is kept in memory or in a
 * temporary until the first checkpoint; at every checkpoint it is brought up to date in its
 * final files (the series appended, the profiles and force statistics so far rewritten, each
 * synced to the disk) and the checkpoint then records the state of the outputs with the
 * simulation's (gc_chute_checkpoint_write_record), so that an interrupted run keeps its record
 * up to its last checkpoint and a resumed one continues it.  Without checkpoints every file is
 * written once, at the end. */
int gc_chute_out_open(gc_chute_out **out, const gc_chute_run *run, const gc_chute *c,
                      const char *dir, char *msg, size_t msglen);
/* Continue the record of the run that wrote the checkpoint `resume` (its record rec, reclen
 * bytes; NULL for a checkpoint without one) after gc_chute_out_open and before the first
 * gc_chute_out_record: the series rows up to the checkpoint (taken from the series.csv next to
 * the checkpoint when it still holds them, which its length and CRC-32 in the record say),
 * the profile frames and force samples when this run's windows and grids take the same
 * samples up to the checkpoint.  Notes (when notes is not NULL) say what starts afresh and
 * why.  GC_EFORMAT if the record is damaged, GC_EIO if series.csv cannot be read. */
int gc_chute_out_continue(gc_chute_out *o, const gc_chute *c, const void *rec, size_t reclen,
                          const char *resume, FILE *notes, char *msg, size_t msglen);
/* Refuse to resume a checkpoint whose record has another value of a key of the physics (the
 * keys of the chute card that are not run control or outputs; granucal-chute(5)) than run:
 * GC_EINVAL with a message naming the key, the checkpoint's value and this run's.  The paths'
 * contents and the derived values are compared by gc_chute_checkpoint_read itself. */
int gc_chute_record_check(const gc_chute_run *run, const void *rec, size_t reclen,
                          const char *resume, char *msg, size_t msglen);
/* Record the state after a step (and once before the first step): series rows, profile
 * samples, force samples, VTK snapshots and checkpoints when due. */
int gc_chute_out_record(gc_chute_out *o, const gc_chute *c, char *msg, size_t msglen);
/* After the last step: the final series row, the profiles, the force statistics and (with
 * checkpoints on) the final checkpoint; commit everything.  Frees o in any case. */
int gc_chute_out_finish(gc_chute_out *o, const gc_chute *c, char *msg, size_t msglen);
/* Give up: remove the temporary files of the outputs not yet complete, free o. */
void gc_chute_out_abort(gc_chute_out *o);
/* Number of force samples taken, the fraction <= 0.05 N and <= 0.1 N, mean contacts per
 * sampled step (for the summary); valid after the sampling window. */
/* Steady-state test (chute_stats.h) of the mean velocity along the flow over the trailing
 * window of this run's series rows, after writing the row of c's state if not yet written;
 * GC_EINVAL with a message if the run is shorter than the window. */
int gc_chute_out_steady(gc_chute_out *o, const gc_chute *c, gc_steady *s, char *msg, size_t n);
/* Energy budget of the chute now (chute.h), in the series' terms [J]: gravity work, kinetic
 * energy change, stored elastic energy, dissipation by category (normal, tangential) and the
 * residual gravity - Delta E_kin - contact work. */
typedef struct {
  double gravity, dkinetic, elastic, d_normal[GC_NCAT], d_tangential[GC_NCAT], residual;
} gc_chute_budget;
void gc_chute_budget_get(const gc_chute *c, gc_chute_budget *b);
void gc_chute_out_force_summary(const gc_chute_out *o, size_t *n, double *f005, double *f01,
                                double *mean_contacts);

/* Legacy VTK POLYDATA of the particle spheres (points, radius, particle id, velocity) or, with
 * beads = 1, of the fixed bottom beads; written atomically. */
int gc_chute_write_vtk(const gc_chute *c, int beads, const char *path, char *msg, size_t msglen);

#endif
