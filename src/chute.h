/* chute.h - the 3-D DEM flow simulator of chapter 9: rigid clusters of spheres (or single
 * spheres) flowing down an inclined chute, periodic along the flow, between two flat side
 * walls, over a bumpy bottom of fixed glass beads, with any contact law of models/.
 *
 * Axes (seed fig. 9.3): x along the flow (downhill, periodic with period `length`), y normal to
 * the chute bottom, pointing up (bead centres at y = 0), z across the chute (side walls at
 * z = 0 and z = width).  Gravity is g (sin(angle), -cos(angle), 0).
 *
 * Time integration: leap-frog for translation (positions at t_n, velocities at t_{n-1/2}),
 * rotation by gc_rot_step (eq. 2.14-2.28).  Contact forces between constituent spheres
 * (eq. 4.9-4.21: normal force from the NFD model, tangential force vector carried into the
 * current tangent plane and stepped with the TFD model along its direction), summed on the
 * particles as force and torque.  Contacts are found through gc_nlist; their history lives in
 * the list's payload and survives rebuilds.  The force loop runs in parallel with OpenMP; forces
 * are summed per particle in a fixed order, so results do not depend on the thread count.
 *
 * No global state; orchestration and output live in cmd_chute.c / chute_io.c. */
#ifndef GC_CHUTE_H
#define GC_CHUTE_H

#include <stddef.h>

#include "gc_model.h"
#include "nlist.h"
#include "rigid.h"

enum {
  GC_BOTTOM_BEADS = 0, /* fixed spheres of radius bead_radius on a hexagonal lattice at y = 0 */
  GC_BOTTOM_FLAT = 1,  /* a flat frictional plane at y = 0 (law_pb with R2 = 0) */
  GC_BOTTOM_NONE = 2,  /* no bottom (tests in a periodic box) */
  GC_BOTTOM_RANDOM = 3 /* fixed spheres of radius bead_radius at y = 0, a random monolayer of
                        * area fraction bead_coverage (random sequential adsorption) */
};

/* Contact categories of the energy budget. */
enum { GC_CAT_PP = 0, GC_CAT_WALL = 1, GC_CAT_BOTTOM = 2, GC_NCAT = 3 };

typedef struct {
  /* particles */
  size_t n_particles; /* number of rigid particles */
  gc_shape shape;     /* shape of every particle (rigid.h) */
  /* domain */
  double length;        /* period along x [m] (table 9.2: 4.16 cm) */
  double width;         /* distance between the side walls, z in [0, width] [m] (15.20 cm) */
  double fill_height;   /* initial placement: centres with y up to fill_height [m] */
  double angle;         /* chute inclination [rad] (21.1 deg) */
  double gravity;       /* [m/s^2], 0: none */
  int bottom;           /* GC_BOTTOM_* */
  double bead_radius;   /* [m] (3.0 mm glass beads: 1.5e-3) */
  double bead_spacing;  /* requested centre distance of the hexagonal bead lattice [m],
                         * >= 2 bead_radius; the lattice takes the nearest spacing that tiles
                         * the period (chute_bottom.c; the true one is in gc_chute.bottom) */
  double bead_coverage; /* GC_BOTTOM_RANDOM: area fraction N pi r^2 / (length width), (0, 0.5] */
  unsigned long bottom_seed; /* GC_BOTTOM_RANDOM: seed of the bead positions (gsl_rng mt19937) */
  int side_walls; /* 1: walls at z = 0 and z = width; 0: periodic along z (period width) */
  /* contact laws: models and the parameters of each material pair.  R1, R2 (and R2 = 0 for a
   * wall) are filled in by the simulator from the sphere radii of each pair; P_Y should be 0
   * so that it is derived from sY for each pair geometry (eq. 6.19-6.21). */
  const gc_preset *nfd, *tfd; /* tfd NULL: frictionless */
  /* rolling and twisting resistance sub-models of every pair (NULL: none); their torque acts
   * on the particles as a couple (M on the particle of sphere i, -M on that of j) and is
   * driven by the relative angular velocity w_I - w_J of the two particles (0 for a wall or a
   * bead).  With none the simulation is bit for bit the one without them. */
  const gc_submodel *rolling_model, *twisting_model;
  /* Cundall's non-viscous local damping (seed 004; Cundall & Hart 1992), a NUMERICAL damping
   * in [0, 1): each component of a particle's resultant force (contacts + gravity) and torque
   * (space axes) is reduced by local_damping |F_k| against the sign of its velocity
   * component.  0: off (bit for bit the undamped run).  For quasi-static states only. */
  double local_damping;
  gc_params pp; /* particle-particle */
  gc_params pw; /* particle-side wall (plexiglass) */
  gc_params pb; /* particle-bottom bead (glass) or flat bottom */
  /* numerics */
  double dt;          /* time step [s] */
  double skin;        /* neighbour-list skin [m] (> 0) */
  unsigned long seed; /* seed of the random initial placement (gsl_rng mt19937) */
  int threads;        /* OpenMP threads of the force loop; 0: the OpenMP default */
  /* contact options the seed leaves open (granucal-chute(5)) */
  int keep_history; /* 0: a contact whose spheres separate loses its history (default);
                         * 1: the history (normal and tangential model state) is kept until the
                         * pair leaves the neighbour list (a wall contact: until the sphere is
                         * more than the skin away from the wall) */
  int rolling;      /* 1: the rolling correction of sec. 5.2 (eq. 5.2-5.5) in 3-D */
} gc_chute_cfg;

/* The bottom beads as built (chute_bottom.c). */
typedef struct {
  size_t n;            /* beads */
  size_t nx, nrow;     /* lattice: beads per row, rows (0 for a random bottom) */
  double spacing;      /* lattice: centre distance along the rows = length / nx [m] */
  double row_distance; /* lattice: distance between rows [m] */
  double nn;           /* true nearest-neighbour centre distance [m] */
  double coverage;     /* area fraction n pi r^2 / (length width) */
  double max_hole;     /* random bottom: largest distance of a floor point from a bead
                         * centre [m] (-1 for a lattice) */
} gc_chute_bottom_info;

/* Bead centres (3 n, malloc'ed, NULL without beads) of cfg's bottom and what they are. */
int gc_chute_bottom_build(const gc_chute_cfg *cfg, double **xyz, gc_chute_bottom_info *info,
                          char *msg, size_t msglen);

/* Energy budget since placement (accumulated by gc_chute_step, kept in checkpoints).  Work
 * absorbed by the contacts of one category: the sum over steps and contacts of the trapezoid
 * of force times relative displacement, 1/2 (P_{n-1} + P_n)(alpha_n - alpha_{n-1}) normal and
 * 1/2 (Q_{n-1} + Q_n) . Delta delta_n tangential.  Gravity work uses the midpoint velocity
 * (v_{n-1/2} + v_{n+1/2})/2, so that with the half-step kinetic energy the leap-frog balance
 * gravity = Delta E_kin + contact work holds up to the O(dt^2) error of the trapezoid and of
 * the rotation step (tests/test_chute.c checks it). */
typedef struct {
  double gravity;             /* [J] */
  double kinetic0;            /* kinetic energy at placement [J] */
  double normal[GC_NCAT];     /* [J] */
  double tangential[GC_NCAT]; /* [J] */
} gc_chute_energy;

/* Fill cfg with the chapter 9 soybean case (tables 9.1-9.2, MODELS.md), ep/ep laws. */
void gc_chute_cfg_soybean(gc_chute_cfg *cfg);

/* History of one sphere-sphere contact (the neighbour-list payload) or sphere-wall contact:
 * a gc_contact3 record of gc_chute.rec_size bytes, the contact law's history block last. */
typedef gc_contact3 gc_chute_contact;

typedef struct {
  gc_chute_cfg cfg;
  size_t np;     /* particles */
  size_t nsph;   /* spheres per particle (cfg.shape.nsph) */
  size_t nbeads; /* fixed bottom beads */
  size_t ns;     /* all spheres: np nsph particle spheres first, then the beads */
  /* particle state.  Positions and orientations are set by gc_chute_place (or a checkpoint
   * read), not written between steps: the step derives the spheres (sx) from them and bounds
   * how far each sphere can have travelled since the list's build by the velocities of each
   * step, which a direct write would jump.  The velocities v and rot[].w may be changed
   * between steps (the tests do; the next step's contacts still see the angular velocity in
   * space axes formed at the end of the step before, its rotation the new one). */
  double *x;      /* 3 np: centre of mass at t_n [m], x wrapped into [0, length) */
  double *v;      /* 3 np: velocity at t_{n-1/2} [m/s] */
  gc_rot *rot;    /* np: orientation at t_n, body angular velocity at t_{n-1/2} */
  double *force;  /* 3 np: total force at t_n (space) [N] */
  double *torque; /* 3 np: torque about the centre of mass at t_n (space) [N m] */
  /* The particle arrays (these, the spheres' and the wall records) are renumbered into the
   * spatial order at every neighbour-list build (and at the read of a format-5 checkpoint),
   * for memory locality as LAMMPS sorts its atoms; a particle keeps its number, so outputs list
   * particles by number. */
  size_t *id;       /* np: the number of the particle stored at index p (its index when
                       * placed) */
  size_t *index_of; /* np: the index of particle number n (the inverse of id) */
  /* spheres */
  double *sx;             /* 3 ns: sphere centres at t_n [m] */
  double *sr;             /* ns: radii [m] */
  long *owner;            /* ns: particle of the sphere, -1 for a bead */
  unsigned char *fixed;   /* ns: 1 for a bead */
  size_t nhist;           /* doubles of contact-law history per contact (gc_law_history_size) */
  size_t rec_size;        /* bytes of one gc_chute_contact record with its history */
  gc_nlist *nl;           /* neighbour list of sphere pairs, payload gc_chute_contact */
  gc_chute_contact *wall; /* 2 np nsph records (stride rec_size, see gc_chute_wall): history
                           * of each particle sphere with the wall at z = 0 ([2 k]) and
                           * z = width ([2 k + 1]); with GC_BOTTOM_FLAT a third record per
                           * sphere follows the two walls (3 np nsph then) */
  gc_chute_bottom_info bottom; /* the bottom beads */
  gc_chute_energy energy;      /* energy budget since placement */
  double t;                    /* simulated time t_n [s] */
  long step;                   /* steps taken */
  void *work; /* private workspace of chute.c (laws per radius pair, pair forces) */
} gc_chute;

/* Wall record k (records have the stride rec_size). */
static inline gc_chute_contact *gc_chute_wall(const gc_chute *c, size_t k)
{
  return (gc_chute_contact *)((char *)c->wall + k * c->rec_size);
}

/* Validate cfg (a message names the parameter and its allowed range), build the laws,
 * the bead lattice, and allocate everything.  Particles are not placed yet. */
int gc_chute_alloc(gc_chute **out, const gc_chute_cfg *cfg, char *msg, size_t msglen);
void gc_chute_free(gc_chute *c);
/* Memory gc_chute_alloc and the random placement would take for cfg [bytes], roughly (within a
 * factor of 2): to refuse a domain typo before any allocation. */
double gc_chute_memory_estimate(const gc_chute_cfg *cfg);
/* Random initial state: centres uniform in the domain above the bottom, random orientations,
 * no overlap with anything (rejection sampling), zero velocities.  GC_EINVAL with a message if
 * the particles do not fit. */
int gc_chute_place_random(gc_chute *c, char *msg, size_t msglen);
/* Place particles at given centres and orientations with given velocities (tests); q may be
 * NULL (identity), v and w (body angular velocity at t_{-1/2}) may be NULL (zero).  Argument
 * particle p gets number p; the list build renumbers the arrays, so it is then stored at
 * index_of[p]. */
int gc_chute_place(gc_chute *c, const double *x, const double *q, const double *v,
                   const double *w_body, char *msg, size_t msglen);
/* Advance one time step (forces at t_n, then the leap-frog update to t_{n+1}).  Returns a
 * GC_* status; on failure msg names what happened (e.g. a non-finite force on particle k), and
 * the state is no longer consistent (discard it, or place / read a checkpoint again). */
int gc_chute_step(gc_chute *c, char *msg, size_t msglen);

typedef struct {
  double t;             /* [s] */
  double v_mean[3];     /* mean particle velocity [m/s] (at t_{n-1/2}) */
  double kinetic;       /* translational + rotational kinetic energy [J] */
  double kinetic_rot;   /* rotational part [J] */
  double momentum[3];   /* total linear momentum [kg m/s] */
  size_t n_contacts;    /* contacts carrying a normal force (all kinds) */
  size_t n_contacts_pp; /* of which between particles */
  double P_max;         /* largest normal force [N] */
  /* the largest overlap against the geometric bound alpha <= GC_ALPHA_R_MAX R* of the
   * contact laws: alpha / R* of the pair, its alpha [m] and R* [m], and the particle (id) */
  double overlap_ratio, overlap_alpha, overlap_R_star;
  size_t overlap_particle;
} gc_chute_stats;

void gc_chute_stats_get(const gc_chute *c, gc_chute_stats *st);
/* Normal forces of all current contacts (P > 0) into P (capacity cap); returns the count
 * (may exceed cap: then only cap are written). */
/* Elastic energy stored in the current contacts, by category [J]: normal, the integral of P
 * along the contact's own unloading curve down to P = 0 (a copy of its state unloaded in 32
 * steps, trapezoid; rate 0, so a viscous term does not count), and tangential, |Q|^2 / (2 K_T0)
 * with K_T0 the initial tangential stiffness at the current P (a lower bound; the exact value
 * depends on the loading path).  The dissipation of a category is its work minus this. */
void gc_chute_energy_stored(const gc_chute *c, double normal[GC_NCAT], double tangential[GC_NCAT]);
size_t gc_chute_contact_forces(const gc_chute *c, double *P, size_t cap);
/* Velocity at t_{n-1/2} of the material point of the particle stored at index k (number
 * id[k]) at space position p [m/s]. */
void gc_chute_point_velocity(const gc_chute *c, size_t k, const double p[3], double v[3]);

/* Checkpoint: the complete state (particles, spheres, contact histories, neighbour list,
 * time, step) written atomically (gc_outfile); reading it into a chute allocated from the same
 * cfg continues bit for bit.  The file records the granucal version, the state layout and the
 * configuration (a text header of key = value lines, the contact parameters by the names of
 * models/params.c) and
 * ends with a CRC-32 (zlib) of its contents: a damaged file (any single flipped bit), a
 * truncated one or one of another layout is refused.  Errors name the file and what does not
 * match. */
int gc_chute_checkpoint_write(const gc_chute *c, const char *path, char *msg, size_t msglen);
int gc_chute_checkpoint_read(gc_chute *c, const char *path, char *msg, size_t msglen);
/* The same with the outputs' record of the run up to this state (reclen bytes, opaque here,
 * chute_io.h), written into the checkpoint (format 8) under its CRC-32, so that the record and
 * the state it describes are replaced together.  The read gives a malloc'd copy in *rec
 * (NULL and 0 for a checkpoint without one, format 5 to 7); the caller frees it. */
int gc_chute_checkpoint_write_record(const gc_chute *c, const char *path, const void *rec,
                                     size_t reclen, char *msg, size_t msglen);
int gc_chute_checkpoint_read_record(gc_chute *c, const char *path, void **rec, size_t *reclen,
                                    char *msg, size_t msglen);

/* The contact laws the simulator built (read-only; e.g. to report the derived P_Y of a pair):
 * between shape spheres k1 and k2 of two particles, between shape sphere k and a side wall,
 * and between shape sphere k and a bottom bead / the flat bottom (NULL with GC_BOTTOM_NONE or
 * an index >= shape.nsph). */
const gc_law *gc_chute_law_pp(const gc_chute *c, size_t k1, size_t k2);
const gc_law *gc_chute_law_pw(const gc_chute *c, size_t k);
const gc_law *gc_chute_law_pb(const gc_chute *c, size_t k);

#endif
