/* card.c - the chute card (granucal-chute(5)): its keys, the reader and the run it describes. */
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

/* ================================================================ the chute card */

enum ktype { T_DBL, T_INT, T_PATH, T_WORD };

enum {
  K_PARAMS,
  K_SHAPE,
  K_PL,
  K_PW,
  K_PH,
  K_PR,
  K_PMASS,
  K_CLUSTER,
  K_PDENS,
  K_NP,
  K_LENGTH,
  K_WIDTH,
  K_FILL,
  K_ANGLE,
  K_GRAV,
  K_BOTTOM,
  K_BEADR,
  K_BEADS,
  K_SIDEW,
  K_WALL,
  K_BEAD,
  K_MUPP,
  K_MUWALL,
  K_MUBEAD,
  K_MODEL,
  K_TFD,
  K_RMODEL,
  K_TMODEL,
  K_NORMAL,
  K_DAMPING,
  K_TANGENTIAL,
  K_DT,
  K_NTCOL,
  K_VREF,
  K_SKIN,
  K_SEED,
  K_THREADS,
  K_LDAMP,
  K_TEND,
  K_SERIES,
  K_VTK,
  K_CKPT,
  K_PSTART,
  K_PEND,
  K_PINT,
  K_PCELL,
  K_PHEIGHT,
  K_WALLBAND,
  K_CENTREBAND,
  K_SURFLO,
  K_SURFHI,
  K_BOTLO,
  K_BOTHI,
  K_FTIME,
  K_FSTEPS,
  K_FMAX,
  K_FBINS,
  K_BEADCOV,
  K_BSEED,
  K_KEEPH,
  K_ROLL,
  K_SWIN,
  K_SBATCH,
  K_COUNT
};

typedef struct {
  const char *key;
  enum ktype type;
  double lo, hi; /* numeric range */
  int lo_open, hi_open;
  const char *unit;
  const char *dflt; /* default as text, NULL: required or derived (see what) */
  const char *what;
  int run; /* RUN: run control or an output (may change when a run is resumed);
                      * PHYS: the physics of the run (the system, the laws, the start, the time
                      * step) */
} ckey;
enum { PHYS = 0, RUN = 1 };

#define INF HUGE_VAL
static const ckey keys[K_COUNT] = {
  [K_PARAMS] = { "params", T_PATH, 0, 0, 0, 0, "", NULL,
                 "particle parameter file (a material card, e.g. written by granucal fit "
                 "-o); required",
                 PHYS },
  [K_SHAPE] = { "shape", T_WORD, 0, 0, 0, 0, "", "ellipsoid4", "ellipsoid4 | sphere | cluster",
                PHYS },
  [K_PL] = { "particle_L", T_DBL, 0, INF, 1, 1, "m", NULL, "ellipsoid4: length L (>= W)", PHYS },
  [K_PW] = { "particle_W", T_DBL, 0, INF, 1, 1, "m", NULL, "ellipsoid4: width W (>= H)", PHYS },
  [K_PH] = { "particle_H", T_DBL, 0, INF, 1, 1, "m", NULL,
             "ellipsoid4: height H = 2 x sphere radius", PHYS },
  [K_PR] = { "particle_R", T_DBL, 0, INF, 1, 1, "m", NULL, "sphere: radius (default: params R)",
             PHYS },
  [K_PMASS] = { "particle_mass", T_DBL, 0, GC_MASS_MAX, 1, 0, "kg", NULL,
                "ellipsoid4, sphere: mass (default: params m, else rho x volume)", PHYS },
  [K_CLUSTER] = { "cluster_file", T_PATH, 0, 0, 0, 0, "", NULL,
                  "cluster: CSV x [m],y [m],z [m],r [m], one sphere per row", PHYS },
  [K_PDENS] = { "particle_density", T_DBL, 0, GC_DENSITY_MAX, 1, 0, "kg/m^3", NULL,
                "cluster: density (default: params rho)", PHYS },
  [K_NP] = { "n_particles", T_INT, 1, 1e8, 0, 0, "", NULL, "number of particles; required", PHYS },
  [K_LENGTH] = { "length", T_DBL, 0, INF, 1, 1, "m", NULL, "period along the flow (x); required",
                 PHYS },
  [K_WIDTH] = { "width", T_DBL, 0, INF, 1, 1, "m", NULL,
                "distance between the side walls (z); required", PHYS },
  [K_FILL] = { "fill_height", T_DBL, 0, INF, 1, 1, "m", NULL,
               "initial random placement: centres up to this height (y); required", PHYS },
  [K_ANGLE] = { "angle_deg", T_DBL, -90, 90, 1, 1, "deg", NULL, "chute inclination; required",
                PHYS },
  [K_GRAV] = { "gravity", T_DBL, 0, GC_CHUTE_GRAVITY_MAX, 0, 0, "m/s^2", "9.80665",
               "gravitational acceleration (at most 100 g: a centrifuge, not a chute, beyond)",
               PHYS },
  [K_BOTTOM] = { "bottom", T_WORD, 0, 0, 0, 0, "", "beads", "beads | random | flat | none", PHYS },
  [K_BEADR] = { "bead_radius", T_DBL, 0, INF, 1, 1, "m", "1.5e-3", "radius of the bottom beads",
                PHYS },
  [K_BEADS] = { "bead_spacing", T_DBL, 0, INF, 1, 1, "m", NULL,
                "requested centre distance of the bead lattice, >= 2 bead_radius (default: 2 "
                "bead_radius); the lattice takes the nearest spacing length / n that tiles the "
                "period",
                PHYS },
  [K_BEADCOV] = { "bead_coverage", T_DBL, 0, 0.5, 1, 0, "-", "0.5",
                  "bottom = random: area fraction of the floor covered by beads", PHYS },
  [K_BSEED] = { "bottom_seed", T_INT, 0, 4294967295.0, 0, 0, "", "1",
                "bottom = random: seed of the bead positions", PHYS },
  [K_SIDEW] = { "side_walls", T_INT, 0, 1, 0, 0, "", "1",
                "1: flat walls at z = 0 and width; 0: periodic along z", PHYS },
  [K_WALL] = { "wall", T_PATH, 0, 0, 0, 0, "", NULL,
               "material card of the side walls (E, nu, mu); required with side_walls = 1", PHYS },
  [K_BEAD] = { "bead", T_PATH, 0, 0, 0, 0, "", NULL,
               "material card of the beads / flat bottom; required unless bottom = none", PHYS },
  [K_MUPP] = { "mu_pp", T_DBL, 0, INF, 0, 1, "-", NULL,
               "particle-particle friction (default: params mu)", PHYS },
  [K_MUWALL] = { "mu_wall", T_DBL, 0, INF, 0, 1, "-", NULL,
                 "particle-wall friction (default: the wall card's mu)", PHYS },
  [K_MUBEAD] = { "mu_bead", T_DBL, 0, INF, 0, 1, "-", NULL,
                 "particle-bottom friction (default: the bead card's mu)", PHYS },
  [K_MODEL] = { "model", T_WORD, 0, 0, 0, 0, "", NULL,
                "normal model (default: params model, else ep)", PHYS },
  [K_TFD] = { "tfd", T_WORD, 0, 0, 0, 0, "", NULL,
              "tangential model or none (default: params tfd, else the normal model's own)", PHYS },
  [K_RMODEL] = { "rolling_model", T_WORD, 0, 0, 0, 0, "", "none",
                 "rolling resistance: none | spring | const (params mu_r, beta_r, w_reg)", PHYS },
  [K_TMODEL] = { "twisting_model", T_WORD, 0, 0, 0, 0, "", "none",
                 "twisting resistance: none | spring | const (params mu, w_reg)", PHYS },
  [K_NORMAL] = { "normal", T_WORD, 0, 0, 0, 0, "", NULL,
                 "normal sub-model (default: the part of model; granucal-models(7))", PHYS },
  [K_DAMPING] = { "damping", T_WORD, 0, 0, 0, 0, "", NULL,
                  "damping sub-model, e.g. tsuji (default: the part of model)", PHYS },
  [K_TANGENTIAL] = { "tangential", T_WORD, 0, 0, 0, 0, "", NULL,
                     "tangential sub-model or none (default: the part of tfd)", PHYS },
  [K_DT] = { "dt", T_DBL, 0, INF, 1, 1, "s", NULL, "time step (default: from ntcol)", PHYS },
  [K_NTCOL] = { "ntcol", T_INT, GC_DT_REFUSE_NTCOL, 1e6, 0, 0, "", "40",
                "dt = shortest Hertz contact duration (eq. 3.22) / ntcol", PHYS },
  [K_VREF] = { "v_ref", T_DBL, 0, INF, 1, 1, "m/s", NULL,
               "impact speed of the contact duration (default: sqrt(2 g fill_height), "
               "else 1)",
               PHYS },
  [K_SKIN] = { "skin", T_DBL, 0, INF, 1, 1, "m", NULL,
               "neighbour-list skin (default: 0.2 x the smallest sphere radius)", PHYS },
  [K_SEED] = { "seed", T_INT, 0, 4294967295.0, 0, 0, "", "1", "seed of the random placement",
               PHYS },
  [K_THREADS] = { "threads", T_INT, 0, 4096, 0, 0, "", "0",
                  "OpenMP threads of the force loop; 0: the OpenMP default", RUN },
  [K_LDAMP] = { "local_damping", T_DBL, 0, 1, 0, 1, "-", "0",
                "Cundall's local damping (numerical, not physical; quasi-static states "
                "only)",
                PHYS },
  [K_TEND] = { "t_end", T_DBL, 0, INF, 1, 1, "s", NULL, "simulated time; required", RUN },
  [K_SERIES] = { "series_interval", T_DBL, 0, INF, 1, 1, "s", "1e-3", "time series interval", RUN },
  [K_VTK] = { "vtk_interval", T_DBL, 0, INF, 0, 1, "s", "0", "VTK snapshot interval; 0: none",
              RUN },
  [K_CKPT] = { "checkpoint_interval", T_DBL, 0, INF, 0, 1, "s", "0",
               "checkpoint interval (and a final checkpoint); 0: none", RUN },
  [K_PSTART] = { "profile_start", T_DBL, 0, INF, 0, 1, "s", NULL,
                 "start of the profile window (default: 0.86 t_end, the seed's 6.02 s of "
                 "7 s)",
                 RUN },
  [K_PEND] = { "profile_end", T_DBL, 0, INF, 0, 1, "s", NULL,
               "end of the profile window (default: t_end)", RUN },
  [K_PINT] = { "profile_interval", T_DBL, 0, INF, 1, 1, "s", "0.01",
               "sampling interval of the profiles (seed: 99 frames in 0.98 s)", RUN },
  [K_PCELL] = { "profile_cell", T_DBL, 0, INF, 1, 1, "m", "5e-3", "cell size of the profile grids",
                RUN },
  [K_PHEIGHT] = { "profile_height", T_DBL, 0, INF, 1, 1, "m", NULL,
                  "top of the side-view grids (default: fill_height)", RUN },
  [K_WALLBAND] = { "wall_band", T_DBL, 0, INF, 1, 1, "m", "0.01",
                   "side view near the walls: centres within this distance of a wall", RUN },
  [K_CENTREBAND] = { "centre_band", T_DBL, 0, INF, 1, 1, "m", "0.01",
                     "side view at the centre line: centres in a band this wide around z "
                     "= width/2",
                     RUN },
  [K_SURFLO] = { "surface_y_min", T_DBL, -INF, INF, 1, 1, "m", "0.035",
                 "top view near the surface: centres with y in [min, max) (fig. 9.9a)", RUN },
  [K_SURFHI] = { "surface_y_max", T_DBL, -INF, INF, 1, 1, "m", "0.045", "", RUN },
  [K_BOTLO] = { "bottom_y_min", T_DBL, -INF, INF, 1, 1, "m", "0.005",
                "top view near the bottom: centres with y in [min, max) (fig. 9.9b)", RUN },
  [K_BOTHI] = { "bottom_y_max", T_DBL, -INF, INF, 1, 1, "m", "0.015", "", RUN },
  [K_FTIME] = { "forces_time", T_DBL, 0, INF, 0, 1, "s", NULL,
                "force statistics over the steps ending at this time (default: t_end)", RUN },
  [K_FSTEPS] = { "forces_steps", T_INT, 1, 1e9, 0, 0, "", "10",
                 "number of steps sampled for the force statistics (seed: 10)", RUN },
  [K_FMAX] = { "forces_max", T_DBL, 0, INF, 1, 1, "N", "0.25", "upper end of the force histogram",
               RUN },
  [K_FBINS] = { "forces_bins", T_INT, 1, 1e6, 0, 0, "", "45",
                "bins of the force histogram (0.25 N / 45 = 5.6 mN, fig. 9.12)", RUN },
  [K_KEEPH] = { "keep_history", T_INT, 0, 1, 0, 0, "", "0",
                "1: a contact keeps its history after separation until the pair leaves the "
                "neighbour list; 0: it is reset",
                PHYS },
  [K_ROLL] = { "rolling", T_INT, 0, 1, 0, 0, "", "0",
               "1: the rolling correction of sec. 5.2 in 3-D", PHYS },
  [K_SWIN] = { "steady_window", T_DBL, 0, INF, 1, 1, "s", NULL,
               "trailing window of the steady-state test (default: min(1 s, t_end / 2))", RUN },
  [K_SBATCH] = { "steady_batches", T_INT, 3, 10000, 0, 0, "", "10",
                 "batch means in the steady-state window", RUN },
};

typedef struct {
  const char *path; /* the chute card, NULL if none */
  int set[K_COUNT];
  long seq[K_COUNT]; /* order in which the keys were last set */
  long nseq;
  double v[K_COUNT];
  char *s[K_COUNT];                            /* words and resolved paths */
  char where[K_COUNT][GC_CHUTE_PATH_MAX + 64]; /* "file:line:column" or "--set key" */
} raw_card;

static void raw_free(raw_card *r)
{
  for (size_t i = 0; i < K_COUNT; i++)
    free(r->s[i]);
}

static void range_text(const ckey *k, char *buf, size_t n)
{
  if (k->type == T_INT && k->hi - k->lo == 1) /* a switch: "must be an integer in [0, 1]" */
    snprintf(buf, n, "an integer in [%.0f, %.0f]", k->lo, k->hi);
  else
    gc_range_text(k->lo, k->hi, k->lo_open, k->hi_open, k->type == T_INT, k->unit, buf, n);
}

static int allowed_word(size_t idx, const char *v)
{
  if (idx == K_SHAPE)
    return !strcmp(v, "ellipsoid4") || !strcmp(v, "sphere") || !strcmp(v, "cluster");
  if (idx == K_BOTTOM)
    return !strcmp(v, "beads") || !strcmp(v, "random") || !strcmp(v, "flat") || !strcmp(v, "none");
  if (idx == K_MODEL) {
    const gc_preset *m = gc_preset_lookup(v);
    return m && m->normal;
  }
  if (idx == K_TFD) {
    const gc_preset *m = gc_preset_lookup(v);
    return !strcmp(v, "none") || (m && m->tangential);
  }
  if (idx == K_RMODEL)
    return gc_submodel_lookup(GC_KIND_ROLLING, v) != NULL;
  if (idx == K_TMODEL)
    return gc_submodel_lookup(GC_KIND_TWISTING, v) != NULL;
  return 1;
}

static const char *word_choices(size_t idx)
{
  switch (idx) {
  case K_SHAPE: return "must be ellipsoid4, sphere or cluster";
  case K_BOTTOM: return "must be beads, random, flat or none";
  case K_MODEL: return "is not a normal model (see 'granucal models')";
  case K_TFD: return "is not a tangential model or none (see 'granucal models')";
  case K_RMODEL: return "is not a rolling model: none, spring or const (see 'granucal models')";
  case K_TMODEL: return "is not a twisting model: none, spring or const (see 'granucal models')";
  default: return "is not allowed";
  }
}

/* Join a relative path to the directory of base ("" or NULL base: unchanged). */
static char *resolve_path(const char *base, const char *p)
{
  size_t dl = 0;
  if (p[0] != '/' && base) {
    const char *slash = strrchr(base, '/');
    if (slash)
      dl = (size_t)(slash - base) + 1;
  }
  char *r = malloc(dl + strlen(p) + 1);
  if (r) {
    if (dl)
      memcpy(r, base, dl);
    strcpy(r + dl, p);
  }
  return r;
}

/* Set one key; where = "file:line:column" of the key, vwhere that of the value. */
static int raw_set(raw_card *r, const char *base, const char *key, const char *value,
                   const char *where, const char *vwhere, char *msg, size_t n)
{
  size_t i;
  for (i = 0; i < K_COUNT; i++)
    if (strcmp(keys[i].key, key) == 0)
      break;
  if (i == K_COUNT) {
    gc_suggest sg;
    gc_suggest_init(&sg, key);
    for (size_t j = 0; j < K_COUNT; j++)
      gc_suggest_add(&sg, keys[j].key);
    char dym[96];
    snprintf(msg, n, "%s: unknown key '%s'%s (see 'granucal chute --help' for the keys)", where,
             key, gc_suggest_text(&sg, dym, sizeof dym));
    return GC_EFORMAT;
  }
  const ckey *k = &keys[i];
  if (k->type == T_PATH || k->type == T_WORD) {
    if (!*value) {
      snprintf(msg, n, "%s: %s: empty value", vwhere, key);
      return GC_EFORMAT;
    }
    if ((i == K_NORMAL || i == K_DAMPING || i == K_TANGENTIAL) &&
        gc_law_key_check((gc_kind)gc_law_key_kind(key), key, value, msg, n)) {
      char why[512];
      snprintf(why, sizeof why, "%s", msg);
      snprintf(msg, n, "%s: %s", vwhere, why);
      return GC_EINVAL;
    }
    if (k->type == T_WORD && !allowed_word(i, value)) {
      snprintf(msg, n, "%s: %s = '%s' %s", vwhere, key, value, word_choices(i));
      return GC_EINVAL;
    }
    char *s = k->type == T_PATH ? resolve_path(base, value) : strdup(value);
    if (!s) {
      snprintf(msg, n, "out of memory");
      return GC_ENOMEM;
    }
    free(r->s[i]);
    r->s[i] = s;
  } else {
    double v;
    char rt[96];
    range_text(k, rt, sizeof rt);
    int nst = gc_parse_double(value, &v);
    if (nst) {
      snprintf(msg, n, "%s: %s = '%s' %s; allowed%s %s", vwhere, key, value, gc_number_error(nst),
               k->type == T_INT ? ":" : " range", rt);
      return GC_EFORMAT;
    }
    int bad = k->type == T_INT ? (v != floor(v) || v < k->lo || v > k->hi)
                               : ((k->lo_open ? !(v > k->lo) : !(v >= k->lo)) ||
                                  (k->hi_open ? !(v < k->hi) : !(v <= k->hi)));
    if (bad) {
      snprintf(msg, n, "%s: %s = %s %s %s", vwhere, key, value,
               k->type == T_INT ? "must be" : "out of range", rt);
      return GC_EINVAL;
    }
    r->v[i] = v;
  }
  r->set[i] = 1;
  r->seq[i] = ++r->nseq;
  snprintf(r->where[i], sizeof r->where[i], "%s", where);
  return GC_SUCCESS;
}

typedef struct {
  raw_card *r;
  const char *path;
} raw_ctx;

static int raw_line(void *vp, const char *key, const char *value, size_t line, size_t kcol,
                    size_t vcol, char *msg, size_t n)
{
  raw_ctx *c = vp;
  char where[GC_CHUTE_PATH_MAX + 64], vwhere[GC_CHUTE_PATH_MAX + 64];
  snprintf(where, sizeof where, "%s:%zu:%zu", c->path, line, kcol);
  snprintf(vwhere, sizeof vwhere, "%s:%zu:%zu", c->path, line, vcol);
  return raw_set(c->r, c->path, key, value, where, vwhere, msg, n);
}

static int raw_read_file(raw_card *r, const char *path, char *msg, size_t n)
{
  raw_ctx c = { r, path };
  return gc_kv_read(path, raw_line, &c, msg, n);
}

void gc_chute_print_keys(FILE *f)
{
  for (size_t i = 0; i < K_COUNT; i++) {
    const ckey *k = &keys[i];
    char unit[24] = "";
    if (*k->unit)
      snprintf(unit, sizeof unit, "[%s] ", k->unit);
    fprintf(f, "  %-20s %s%s", k->key, unit, *k->what ? k->what : "(see above)");
    if (k->dflt)
      fprintf(f, " (default %s)", k->dflt);
    fputc('\n', f);
  }
}

/* ================================================================ building the run */

static double val(const raw_card *r, size_t i)
{
  return r->set[i] ? r->v[i] : (keys[i].dflt ? strtod(keys[i].dflt, NULL) : NAN);
}

static const char *word(const raw_card *r, size_t i)
{
  return r->s[i] ? r->s[i] : keys[i].dflt;
}

static int need(const raw_card *r, size_t i, const char *why, char *msg, size_t n)
{
  if (r->set[i])
    return GC_SUCCESS;
  snprintf(msg, n, "%s%skey '%s' is required%s%s", r->path ? r->path : "", r->path ? ": " : "",
           keys[i].key, why ? " " : "", why ? why : "");
  return GC_EINVAL;
}

/* P_Y of a parameter file -> sY for the file's own geometry (eq. 6.19 inverted):
 * p_y = (6 E*^2 P_Y / (pi^3 R*^2))^(1/3), sY = p_y / A_Y(nu). */
static int py_to_sy(gc_params *p, const char *file, char *msg, size_t n)
{
  gc_params q = *p;
  q.P_Y = 0;
  gc_pair pair;
  char sub[256];
  if (!(q.R1 > 0)) {
    snprintf(msg, n, "%s: P_Y is given without the radius R of its geometry: give R (or sY)", file);
    return GC_EINVAL;
  }
  if (gc_pair_setup(&pair, &q, sub, sizeof sub)) {
    snprintf(msg, n, "%s: %s", file, sub);
    return GC_EINVAL;
  }
  double AY;
  if (gc_yield_coefficient(q.nu1, &AY) || !(AY > 0)) {
    snprintf(msg, n, "%s: nu = %g: no yield coefficient A_Y(nu)", file, q.nu1);
    return GC_EINVAL;
  }
  double py = cbrt(6.0 * pair.E_star * pair.E_star * p->P_Y /
                   (M_PI * M_PI * M_PI * pair.R_star * pair.R_star));
  p->sY1 = py / AY;
  p->P_Y = 0;
  return GC_SUCCESS;
}

/* Contact duration of a pair for the time step, as the normal sub-model states it (eq. 3.22
 * for the Hertz-type ones, the linear half period for the linear ones); NAN if p lacks what
 * it needs. */
static double pair_time(const gc_preset *nfd, const gc_params *p, double mass, double v)
{
  const gc_submodel *m = gc_preset_part(nfd, GC_KIND_NORMAL);
  double t;
  if (!m || !m->contact_time || m->contact_time(p, mass, v, &t))
    return NAN;
  return t;
}

static int load_material(const raw_card *r, size_t i, gc_params *m, gc_card_extra *mx, char *msg,
                         size_t n)
{
  gc_params_default(m);
  gc_card_extra_default(mx);
  int st = gc_card_read(r->s[i], m, mx, msg, n);
  if (st)
    return st;
  if (!(m->E1 >= 0)) {
    snprintf(msg, n, "%s: E = %g out of range [0, inf) Pa (the %s material's modulus; 0: rigid)",
             r->s[i], m->E1, keys[i].key);
    return GC_EINVAL;
  }
  if (m->E1 > 0 && !(m->nu1 > -1 && m->nu1 < 0.5)) {
    snprintf(msg, n, "%s: nu = %g out of range (-1, 0.5)", r->s[i], m->nu1);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

/* The particle parameter file: the material of the particles, its P_Y as sY. */
static int card_particle(const raw_card *r, gc_chute_run *run, char *msg, size_t n)
{
  int st;
  snprintf(run->params_path, sizeof run->params_path, "%s", r->s[K_PARAMS]);
  gc_params *pp = &run->particle;
  gc_card_extra *px = &run->particle_x;
  gc_params_default(pp);
  gc_card_extra_default(px);
  if ((st = gc_card_read(run->params_path, pp, px, msg, n)))
    return st;
  run->PY_file = pp->P_Y;
  /* P_Y > 0 takes precedence over sY in every reader (granucal-params(5)); the chute needs sY
   * (each pair has its own P_Y), so P_Y becomes sY by the file's own geometry.  A file that
   * gives both (as `granucal fit` writes them) must give the same material. */
  if (pp->P_Y > 0) {
    double sY_file = pp->sY1, PY_file = pp->P_Y;
    if ((st = py_to_sy(pp, run->params_path, msg, n)))
      return st;
    run->sY_derived = 1;
    if (sY_file > 0 && fabs(sY_file - pp->sY1) > 1e-3 * pp->sY1) {
      snprintf(msg, n,
               "%s: P_Y = %g N and sY = %g Pa disagree (P_Y gives sY = %g Pa by eq. 6.19 "
               "for this file's R, E, nu); P_Y takes precedence in granucal, but a file "
               "with two yield limits is ambiguous: remove one",
               run->params_path, PY_file, sY_file, pp->sY1);
      return GC_EINVAL;
    }
  }
  return GC_SUCCESS;
}

/* The particle shape: an ellipsoid of four spheres, a sphere or a cluster file. */
static int card_shape(const raw_card *r, gc_chute_run *run, char *msg, size_t n)
{
  int st;
  gc_chute_cfg *cfg = &run->sim;
  const gc_params *pp = &run->particle;
  const gc_card_extra *px = &run->particle_x;
  const char *shape = word(r, K_SHAPE);
  char sub[512];
  if (!strcmp(shape, "ellipsoid4")) {
    run->shape_kind = GC_SHAPE_KIND_ELLIPSOID4;
    if ((st = need(r, K_PL, "with shape = ellipsoid4", msg, n)) ||
        (st = need(r, K_PW, "with shape = ellipsoid4", msg, n)) ||
        (st = need(r, K_PH, "with shape = ellipsoid4", msg, n)))
      return st;
    double L = r->v[K_PL], W = r->v[K_PW], H = r->v[K_PH];
    double m = r->set[K_PMASS] ? r->v[K_PMASS]
               : px->mass > 0  ? px->mass
                               : px->rho * M_PI / 6.0 * L * W * H;
    if (!(m > 0)) {
      snprintf(msg, n, "the particle mass is unknown: give particle_mass, or m or rho in %s",
               run->params_path);
      return GC_EINVAL;
    }
    if (gc_shape_ellipsoid4(L, W, H, m, &cfg->shape, sub, sizeof sub)) {
      snprintf(msg, n, "%s: %s", r->where[K_PL], sub);
      return GC_EINVAL;
    }
  } else if (!strcmp(shape, "sphere")) {
    run->shape_kind = GC_SHAPE_KIND_SPHERE;
    double R = r->set[K_PR] ? r->v[K_PR] : pp->R1;
    if (!(R > 0)) {
      snprintf(msg, n, "the sphere radius is unknown: give particle_R, or R in %s",
               run->params_path);
      return GC_EINVAL;
    }
    double m = r->set[K_PMASS] ? r->v[K_PMASS]
               : px->mass > 0  ? px->mass
                               : px->rho * 4.0 / 3.0 * M_PI * R * R * R;
    if (!(m > 0)) {
      snprintf(msg, n, "the particle mass is unknown: give particle_mass, or m or rho in %s",
               run->params_path);
      return GC_EINVAL;
    }
    if (gc_shape_sphere(R, m, &cfg->shape, sub, sizeof sub)) {
      snprintf(msg, n, "%s", sub);
      return GC_EINVAL;
    }
  } else {
    run->shape_kind = GC_SHAPE_KIND_CLUSTER;
    if ((st = need(r, K_CLUSTER, "with shape = cluster", msg, n)))
      return st;
    double rho = r->set[K_PDENS] ? r->v[K_PDENS] : px->rho;
    if (!(rho > 0)) {
      snprintf(msg, n, "the particle density is unknown: give particle_density, or rho in %s",
               run->params_path);
      return GC_EINVAL;
    }
    snprintf(run->cluster_path, sizeof run->cluster_path, "%s", r->s[K_CLUSTER]);
    if ((st = gc_shape_read(r->s[K_CLUSTER], rho, &cfg->shape, msg, n)))
      return st;
  }
  return GC_SUCCESS;
}

/* The chute: domain, bottom and side walls. */
static int card_domain(const raw_card *r, gc_chute_cfg *cfg, char *msg, size_t n)
{
  cfg->n_particles = (size_t)r->v[K_NP];
  cfg->length = r->v[K_LENGTH];
  cfg->width = r->v[K_WIDTH];
  cfg->fill_height = r->v[K_FILL];
  cfg->angle = r->v[K_ANGLE] * M_PI / 180.0;
  cfg->gravity = val(r, K_GRAV);
  const char *bottom = word(r, K_BOTTOM);
  cfg->bottom = !strcmp(bottom, "beads")    ? GC_BOTTOM_BEADS
                : !strcmp(bottom, "random") ? GC_BOTTOM_RANDOM
                : !strcmp(bottom, "flat")   ? GC_BOTTOM_FLAT
                                            : GC_BOTTOM_NONE;
  cfg->bead_coverage = val(r, K_BEADCOV);
  cfg->bottom_seed = (unsigned long)val(r, K_BSEED);
  cfg->keep_history = (int)val(r, K_KEEPH);
  cfg->rolling = (int)val(r, K_ROLL);
  cfg->bead_radius = val(r, K_BEADR);
  cfg->bead_spacing = r->set[K_BEADS] ? r->v[K_BEADS] : 2.0 * cfg->bead_radius;
  if (cfg->bottom == GC_BOTTOM_BEADS && cfg->bead_spacing < 2.0 * cfg->bead_radius) {
    snprintf(msg, n, "%s: bead_spacing = %g out of range [2 bead_radius = %g, inf) m",
             r->where[K_BEADS], cfg->bead_spacing, 2.0 * cfg->bead_radius);
    return GC_EINVAL;
  }
  cfg->side_walls = (int)val(r, K_SIDEW);
  return GC_SUCCESS;
}

/* The contact laws and the parameters of the particle-particle, particle-wall and
 * particle-bottom pairs (mass: of a particle [kg]). */
static int card_laws(const raw_card *r, gc_chute_run *run, double mass, char *msg, size_t n)
{
  int st;
  gc_chute_cfg *cfg = &run->sim;
  const gc_params *pp = &run->particle;
  const gc_card_extra *px = &run->particle_x;
  const char *bad;
  gc_kind bad_kind;
  if (gc_preset_resolve(r->s[K_MODEL], r->s[K_TFD], px->nfd, px->tfd, &cfg->nfd, &cfg->tfd, &bad,
                        &bad_kind)) {
    snprintf(msg, n, "%s: %s '%s' is not a %s model (see 'granucal models')", run->params_path,
             bad_kind == GC_KIND_NORMAL ? "model" : "tfd", bad,
             bad_kind == GC_KIND_NORMAL ? "normal" : "tangential");
    return GC_EINVAL;
  }
  cfg->rolling_model = gc_submodel_lookup(GC_KIND_ROLLING, word(r, K_RMODEL));
  cfg->twisting_model = gc_submodel_lookup(GC_KIND_TWISTING, word(r, K_TMODEL));
  /* sub-models named one by one: the card's keys, else the parameter file's */
  const char *names[GC_NKINDS] = { NULL };
  gc_card_law_names(px, names);
  names[GC_KIND_ROLLING] = names[GC_KIND_TWISTING] = NULL; /* rolling_model, twisting_model */
  static const int law_key[3] = { K_NORMAL, K_DAMPING, K_TANGENTIAL };
  for (int k = 0; k < 3; k++)
    names[k] = r->s[law_key[k]] ? r->s[law_key[k]] : names[k];
  if (gc_law_compose(names, &cfg->nfd, &cfg->tfd, &cfg->rolling_model, &cfg->twisting_model,
                     &bad_kind)) {
    gc_law_key_check(bad_kind, gc_kind_name(bad_kind), names[bad_kind], msg, n);
    return GC_EINVAL;
  }
  /* particle-particle: both bodies of the particle material */
  cfg->pp = *pp;
  cfg->pp.R1 = cfg->pp.R2 = 0;
  cfg->pp.E2 = pp->E1;
  cfg->pp.nu2 = pp->nu1;
  cfg->pp.sY2 = pp->sY1;
  cfg->pp.P_Y = 0;
  if (r->set[K_MUPP])
    cfg->pp.mu = r->v[K_MUPP];
  /* A parameter file of `granucal fit` calibrates the normal model only and says mu = 0: that
   * must not become frictionless grains without the user saying so. */
  if (!(cfg->pp.mu > 0) && !r->set[K_MUPP] && cfg->tfd) {
    snprintf(msg, n,
             "%s gives no particle-particle friction (mu = 0; `granucal fit` does not "
             "calibrate friction): set mu_pp in the chute card (mu_pp = 0 for "
             "frictionless grains) or mu in the parameter file",
             run->params_path);
    return GC_EINVAL;
  }
  if (!(pp->m_eff > 0))
    cfg->pp.m_eff = mass / 2;
  /* particle-wall and particle-bottom: body 2 of the card's material, which does not yield
   * unless the card gives sY */
  gc_params mat;
  gc_card_extra matx;
  const struct {
    size_t file, mu;
    gc_params *dst;
    int used;
    const char *why;
  } pairs[2] = {
    { K_WALL, K_MUWALL, &cfg->pw, cfg->side_walls, "with side_walls = 1" },
    { K_BEAD, K_MUBEAD, &cfg->pb, cfg->bottom != GC_BOTTOM_NONE, "with bottom = beads or flat" },
  };
  for (size_t i = 0; i < 2; i++) {
    gc_params *d = pairs[i].dst;
    *d = cfg->pp;
    d->m_eff = pp->m_eff > 0 ? pp->m_eff : mass;
    if (!pairs[i].used)
      continue;
    if ((st = need(r, pairs[i].file, pairs[i].why, msg, n)))
      return st;
    snprintf(i ? run->bead_path : run->wall_path, GC_CHUTE_PATH_MAX, "%s", r->s[pairs[i].file]);
    if ((st = load_material(r, pairs[i].file, &mat, &matx, msg, n)))
      return st;
    d->E2 = mat.E1;
    d->nu2 = mat.nu1;
    d->sY2 = mat.sY1;
    d->mu = r->set[pairs[i].mu] ? r->v[pairs[i].mu] : mat.mu;
    if (!(d->mu > 0) && !r->set[pairs[i].mu] && cfg->tfd) {
      snprintf(msg, n,
               "%s gives no friction (mu = 0): set %s in the chute card (0 for a "
               "frictionless %s) or mu in that card",
               r->s[pairs[i].file], i ? "mu_bead" : "mu_wall", i ? "bottom" : "wall");
      return GC_EINVAL;
    }
  }
  return GC_SUCCESS;
}

/* The time step (dt, or ntcol steps per shortest contact duration of the pairs of particles
 * of the smallest sphere radius rmin [m] and mass [kg]), checked, and the step count. */
static int card_time_step(const raw_card *r, gc_chute_run *run, double rmin, double mass, char *msg,
                          size_t n)
{
  gc_chute_cfg *cfg = &run->sim;
  run->t_end = r->v[K_TEND];
  run->v_ref = r->set[K_VREF]     ? r->v[K_VREF]
               : cfg->gravity > 0 ? sqrt(2.0 * cfg->gravity * cfg->fill_height)
                                  : 1.0;
  {
    gc_params q = cfg->pp;
    q.R1 = q.R2 = rmin;
    double t = pair_time(cfg->nfd, &q, mass / 2, run->v_ref);
    if (cfg->side_walls) {
      q = cfg->pw;
      q.R1 = rmin;
      q.R2 = 0;
      t = fmin(t, pair_time(cfg->nfd, &q, mass, run->v_ref));
    }
    if (cfg->bottom != GC_BOTTOM_NONE) {
      q = cfg->pb;
      q.R1 = rmin;
      q.R2 = cfg->bottom == GC_BOTTOM_FLAT ? 0 : cfg->bead_radius;
      t = fmin(t, pair_time(cfg->nfd, &q, mass, run->v_ref));
    }
    run->t_contact = t;
  }
  /* dt or ntcol: the one set last (a --set dt=... overrides the file's ntcol) */
  if (r->set[K_DT] && (!r->set[K_NTCOL] || r->seq[K_DT] > r->seq[K_NTCOL])) {
    cfg->dt = r->v[K_DT];
    run->ntcol = 0;
  } else {
    run->ntcol = (int)val(r, K_NTCOL);
    if (!(run->t_contact > 0) || !isfinite(run->t_contact)) {
      int linear = (gc_preset_part(cfg->nfd, GC_KIND_NORMAL)->flags & GC_SUB_LINEAR) != 0;
      snprintf(msg, n, "ntcol: no contact duration: model %s needs %s in %s; or give dt",
               cfg->nfd->name, linear ? "k_n > 0" : "E > 0", run->params_path);
      return GC_EINVAL;
    }
    cfg->dt = run->t_contact / run->ntcol;
  }
  /* the time step against the shortest contact duration of the pairs, before any work */
  if (!(run->t_contact > 0) || !isfinite(run->t_contact)) {
    snprintf(msg, n,
             "%s: dt = %g s: no contact duration of model %s to check it against (%s "
             "lacks E or k_n)",
             r->where[K_DT], cfg->dt, cfg->nfd->name, run->params_path);
    return GC_EINVAL;
  }
  {
    char what[160], sub[400];
    snprintf(what, sizeof what, "the stiffest pair at v_ref = %.4g m/s", run->v_ref);
    run->dt_check = gc_dt_check(cfg->dt, run->t_contact, what, sub, sizeof sub);
    if (run->dt_check == GC_DT_REFUSE) {
      snprintf(msg, n, "%s: %s", r->set[K_DT] && !run->ntcol ? r->where[K_DT] : r->where[K_NTCOL],
               sub);
      return GC_EINVAL;
    }
    snprintf(run->dt_note, sizeof run->dt_note, "%s", run->dt_check ? sub : "");
  }
  double ns = run->t_end / cfg->dt;
  if (ns < 1) {
    snprintf(msg, n, "%s: t_end = %g s is shorter than the time step dt = %g s", r->where[K_TEND],
             run->t_end, cfg->dt);
    return GC_EINVAL;
  }
  {
    /* the step count, before any work (timestep.h), with the run's duration estimated from a
     * measured cost per sphere and step */
    char sub[400];
    double per_step =
        GC_CHUTE_SEC_PER_SPHERE_STEP * (double)cfg->n_particles * (double)cfg->shape.nsph;
    if (gc_steps_check(cfg->dt, run->t_end, "t_end", run->t_contact / GC_DT_REFUSE_NTCOL, per_step,
                       sub, sizeof sub)) {
      snprintf(msg, n, "%s: %s", r->where[K_TEND], sub);
      return GC_EINVAL;
    }
  }
  if (!run->ntcol && fabs(ns - nearbyint(ns)) > 1e-6 * fmax(1.0, ns) &&
      fabs(ns - nearbyint(ns)) > 1e-3) {
    /* an explicit dt: the run ends at t_end, not at the nearest step */
    snprintf(msg, n,
             "%s: t_end = %.9g s is not a whole number of steps of dt = %.9g s (%.6f "
             "steps): give t_end = %.9g or %.9g s, or a dt that divides it",
             r->where[K_TEND], run->t_end, cfg->dt, ns, floor(ns) * cfg->dt, ceil(ns) * cfg->dt);
    return GC_EINVAL;
  }
  run->n_steps = (long)llround(ns);
  if (run->n_steps < 1)
    run->n_steps = 1;
  return GC_SUCCESS;
}

/* The skin of the neighbour list (rmin: the smallest sphere radius [m]), the seed, the
 * threads and the local damping. */
static int card_run(const raw_card *r, gc_chute_cfg *cfg, double rmin, char *msg, size_t n)
{
  cfg->skin = r->set[K_SKIN] ? r->v[K_SKIN] : 0.2 * rmin;
  cfg->seed = (unsigned long)val(r, K_SEED);
  cfg->threads = (int)val(r, K_THREADS);
#ifndef _OPENMP
  (void)msg, (void)n; /* the thread count is checked against the processors with OpenMP */
#else
  {
    /* more threads than processors only slow the force loop down (1000 threads on 2 cores:
     * 36 s for 0.01 s of tiny.chute instead of 0.01 s); the results do not depend on it */
    int procs = omp_get_num_procs();
    if (cfg->threads > GC_CHUTE_THREADS_PER_PROC * procs) {
      snprintf(msg, n,
               "%s: threads = %d out of range [0, %d] (%d x the %d processor%s of this "
               "machine; 0: the OpenMP default): more threads than processors only slow the "
               "run down",
               r->where[K_THREADS], cfg->threads, GC_CHUTE_THREADS_PER_PROC * procs,
               GC_CHUTE_THREADS_PER_PROC, procs, procs == 1 ? "" : "s");
      return GC_EINVAL;
    }
  }
#endif
  cfg->local_damping = val(r, K_LDAMP);
  return GC_SUCCESS;
}

/* The outputs: intervals, profile windows and grids, bands, force and steady-state
 * statistics. */
static int card_outputs(const raw_card *r, gc_chute_run *run, char *msg, size_t n)
{
  gc_chute_cfg *cfg = &run->sim;
  run->series_interval = val(r, K_SERIES);
  run->vtk_interval = val(r, K_VTK);
  run->checkpoint_interval = val(r, K_CKPT);
  run->profile_start = r->set[K_PSTART] ? r->v[K_PSTART] : 0.86 * run->t_end;
  run->profile_end = r->set[K_PEND] ? r->v[K_PEND] : run->t_end;
  /* a window after t_end (e.g. with a shorter --t-end) is empty: the profiles have no rows */
  run->profile_note[0] = 0;
  if (run->profile_start > run->t_end)
    snprintf(run->profile_note, sizeof run->profile_note,
             "profile_start = %g s is after t_end "
             "= %g s: the profiles will be empty (lower profile_start or raise t_end)",
             run->profile_start, run->t_end);
  if (r->set[K_PEND] && run->profile_end < run->profile_start) {
    snprintf(msg, n, "%s: profile_end = %g s out of range [profile_start = %g s, inf)",
             r->where[K_PEND], run->profile_end, run->profile_start);
    return GC_EINVAL;
  }
  run->profile_interval = val(r, K_PINT);
  run->profile_cell = val(r, K_PCELL);
  run->profile_height = r->set[K_PHEIGHT] ? r->v[K_PHEIGHT] : cfg->fill_height;
  run->wall_band = val(r, K_WALLBAND);
  run->centre_band = val(r, K_CENTREBAND);
  run->surface_lo = val(r, K_SURFLO);
  run->surface_hi = val(r, K_SURFHI);
  run->bottom_lo = val(r, K_BOTLO);
  run->bottom_hi = val(r, K_BOTHI);
  if (!(run->surface_hi > run->surface_lo)) {
    snprintf(msg, n, "surface_y_max = %g m out of range (surface_y_min = %g m, inf)",
             run->surface_hi, run->surface_lo);
    return GC_EINVAL;
  }
  if (!(run->bottom_hi > run->bottom_lo)) {
    snprintf(msg, n, "bottom_y_max = %g m out of range (bottom_y_min = %g m, inf)", run->bottom_hi,
             run->bottom_lo);
    return GC_EINVAL;
  }
  run->forces_time = r->set[K_FTIME] ? r->v[K_FTIME] : run->t_end;
  run->forces_steps = (long)val(r, K_FSTEPS);
  run->forces_max = val(r, K_FMAX);
  run->forces_bins = (long)val(r, K_FBINS);
  run->steady_window = r->set[K_SWIN] ? r->v[K_SWIN] : fmin(1.0, 0.5 * run->t_end);
  run->steady_batches = (long)val(r, K_SBATCH);
  return GC_SUCCESS;
}

/* The memory of the run, before any allocation: a typo in the domain (cm for m) must not
 * take the machine. */
static int card_memory(const raw_card *r, const gc_chute_run *run, char *msg, size_t n)
{
  const gc_chute_cfg *cfg = &run->sim;
  double ybot = cfg->bottom == GC_BOTTOM_NONE ? 0.0 : -cfg->bead_radius;
  double nx = fmax(1.0, ceil(cfg->length / run->profile_cell - 1e-9));
  double ny = fmax(1.0, ceil((run->profile_height - ybot) / run->profile_cell - 1e-9));
  double nz = fmax(1.0, ceil(cfg->width / run->profile_cell - 1e-9));
  double grid = 4.0 * sizeof(double) * (3.0 * nx * ny + 2.0 * nx * nz); /* 5 profiles x 4 grids */
  if (grid > GC_CHUTE_PROFILE_BYTES_MAX) {
    snprintf(msg, n,
             "%s: profile grids of %.0f x %.0f (side) and %.0f x %.0f (top) cells of "
             "profile_cell = %g m would take %.3g GB (limit %.3g GB): check length, width, "
             "profile_height and profile_cell",
             r->set[K_PCELL] ? r->where[K_PCELL]
             : r->path       ? r->path
                             : "profile_cell",
             nx, ny, nx, nz, run->profile_cell, grid / 1e9, GC_CHUTE_PROFILE_BYTES_MAX / 1e9);
    return GC_EINVAL;
  }
  double mem = gc_chute_memory_estimate(cfg);
  if (mem > GC_CHUTE_BYTES_MAX) {
    snprintf(msg, n,
             "%s: the particles, beads and grids of this domain would take about %.3g "
             "GB (limit %.3g GB): check length, width, fill_height, bead_spacing and "
             "n_particles",
             r->path ? r->path : "the chute card", mem / 1e9, GC_CHUTE_BYTES_MAX / 1e9);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

/* The run of card r, section by section (each needs those before it): GC_SUCCESS, or the
 * first error in msg. */
static int build(const raw_card *r, gc_chute_run *run, char *msg, size_t n)
{
  int st;
  gc_chute_cfg *cfg = &run->sim;
  memset(run, 0, sizeof *run);
  if ((st = need(r, K_PARAMS, NULL, msg, n)) || (st = need(r, K_NP, NULL, msg, n)) ||
      (st = need(r, K_LENGTH, NULL, msg, n)) || (st = need(r, K_WIDTH, NULL, msg, n)) ||
      (st = need(r, K_FILL, NULL, msg, n)) || (st = need(r, K_ANGLE, NULL, msg, n)) ||
      (st = need(r, K_TEND, NULL, msg, n)))
    return st;

  if ((st = card_particle(r, run, msg, n)) || (st = card_shape(r, run, msg, n)))
    return st;
  double rmin = INFINITY;
  for (size_t i = 0; i < cfg->shape.nsph; i++)
    rmin = fmin(rmin, cfg->shape.radius[i]);
  const double mass = cfg->shape.mass;
  if ((st = card_domain(r, cfg, msg, n)) || (st = card_laws(r, run, mass, msg, n)) ||
      (st = card_time_step(r, run, rmin, mass, msg, n)) || (st = card_run(r, cfg, rmin, msg, n)) ||
      (st = card_outputs(r, run, msg, n)) || (st = card_memory(r, run, msg, n)))
    return st;
  return GC_SUCCESS;
}

/* The fewest significant digits (15 to 17) that give v back */
static int digits(double v)
{
  char b[40];
  for (int d = 15; d < 17; d++) {
    snprintf(b, sizeof b, "%.*g", d, v);
    if (strtod(b, NULL) == v)
      return d;
  }
  return 17;
}

/* The absolute path of a file (symbolic links resolved) for the effective card, which must name
 * the same files wherever it is read from (its relative paths would be taken from its own
 * directory); a file that cannot be resolved is joined to the working directory.  NULL if out
 * of memory. */
static char *absolute_path(const char *p)
{
  char *r = realpath(p, NULL);
  if (r || p[0] == '/')
    return r ? r : strdup(p);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd))
    return strdup(p);
  size_t l = strlen(cwd) + strlen(p) + 2;
  if ((r = malloc(l)))
    snprintf(r, l, "%s/%s", cwd, p);
  return r;
}

int gc_chute_run_load(const char *path, char *const *sets, size_t nsets, gc_chute_run *run,
                      char *msg, size_t msglen)
{
  raw_card *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(msg, msglen, "out of memory");
    return GC_ENOMEM;
  }
  r->path = path;
  int st = path ? raw_read_file(r, path, msg, msglen) : GC_SUCCESS;
  for (size_t i = 0; !st && i < nsets; i++) {
    const char *eq = strchr(sets[i], '=');
    if (!eq || eq == sets[i]) {
      snprintf(msg, msglen, "--set '%s': expected KEY=VALUE", sets[i]);
      st = GC_EFORMAT;
      break;
    }
    char key[64], where[96];
    size_t kl = (size_t)(eq - sets[i]);
    if (kl >= sizeof key)
      kl = sizeof key - 1;
    memcpy(key, sets[i], kl);
    key[kl] = 0;
    snprintf(where, sizeof where, "--set %s", key);
    st = raw_set(r, NULL, key, eq + 1, where, where, msg, msglen);
  }
  if (!st)
    st = build(r, run, msg, msglen);
  if (!st) {
    /* the effective card, in the order of the key table, with absolute paths; reading it back
     * from any directory gives the same run */
    size_t l = 0, cap = sizeof run->effective;
    run->effective[0] = 0;
    for (int i = 0; i < K_COUNT && l < cap; i++) {
      if (!r->set[i])
        continue;
      char *abs = keys[i].type == T_PATH ? absolute_path(r->s[i]) : NULL;
      if (keys[i].type == T_PATH && !abs) {
        snprintf(msg, msglen, "%s: out of memory", r->s[i]);
        st = GC_ENOMEM;
        break;
      }
      int w = keys[i].type == T_PATH   ? snprintf(run->effective + l, cap - l, "%s = %s  # %s\n",
                                                  keys[i].key, abs, r->where[i])
              : keys[i].type == T_WORD ? snprintf(run->effective + l, cap - l, "%s = %s  # %s\n",
                                                  keys[i].key, r->s[i], r->where[i])
                                       : snprintf(run->effective + l, cap - l, "%s = %.17g  # %s\n",
                                                  keys[i].key, r->v[i], r->where[i]);
      free(abs);
      l += w > 0 ? (size_t)w : 0;
    }
    if (!st && l >= cap) {
      snprintf(msg, msglen, "the effective chute card is longer than %zu bytes", cap);
      st = GC_ENOMEM;
    }
  }
  if (!st) {
    /* the physics keys with a value (set or default), for a resumed run's check; a path's file
     * and a key derived when unset (mu_pp from the parameter file, dt from ntcol, ...) are
     * compared through the configuration they give, in the checkpoint's header */
    size_t l = 0, cap = sizeof run->physics;
    run->physics[0] = 0;
    for (int i = 0; i < K_COUNT && l < cap; i++) {
      if (keys[i].run || keys[i].type == T_PATH || (!r->set[i] && !keys[i].dflt))
        continue;
      int w = keys[i].type == T_WORD
                  ? snprintf(run->physics + l, cap - l, "%s = %s\n", keys[i].key, word(r, i))
                  : snprintf(run->physics + l, cap - l, "%s = %.*g\n", keys[i].key,
                             digits(val(r, i)), val(r, i));
      l += w > 0 ? (size_t)w : 0;
    }
    if (l >= cap) {
      snprintf(msg, msglen, "the physics keys of the chute card are longer than %zu bytes", cap);
      st = GC_ENOMEM;
    }
  }
  raw_free(r);
  free(r);
  return st;
}

void gc_chute_run_describe(const gc_chute_run *run, FILE *f)
{
  const gc_chute_cfg *c = &run->sim;
  fprintf(f, "particles: %zu x %zu sphere(s), m = %.6g kg; models %s/%s\n", c->n_particles,
          c->shape.nsph, c->shape.mass, c->nfd->name, c->tfd ? c->tfd->name : "none");
  if (c->rolling_model || c->twisting_model || c->local_damping > 0)
    fprintf(f, "rolling resistance %s, twisting resistance %s, local damping %g (numerical)\n",
            c->rolling_model ? c->rolling_model->name : "none",
            c->twisting_model ? c->twisting_model->name : "none", c->local_damping);
  if (run->sY_derived)
    fprintf(f,
            "%s: P_Y = %.6g N converted to sY = %.6g Pa for the file's geometry (eq. 6.19); "
            "P_Y is derived per pair\n",
            run->params_path, run->PY_file, run->particle.sY1);
  else if (run->PY_file > 0)
    fprintf(f, "%s: P_Y = %.6g N ignored: sY = %.6g Pa is given; P_Y is derived per pair\n",
            run->params_path, run->PY_file, run->particle.sY1);
  if (run->dt_check)
    fprintf(f, "warning: %s\n", run->dt_note);
  if (run->profile_note[0])
    fprintf(f, "warning: %s\n", run->profile_note);
  if (run->ntcol)
    fprintf(f, "dt = %.6g s: Hertz contact duration %.6g s at v_ref = %.4g m/s / ntcol = %d\n",
            c->dt, run->t_contact, run->v_ref, run->ntcol);
  else
    fprintf(f, "dt = %.6g s (Hertz contact duration %.6g s at v_ref = %.4g m/s)\n", c->dt,
            run->t_contact, run->v_ref);
  fprintf(f, "t_end = %.6g s: %ld steps\n", run->t_end, run->n_steps);
}
