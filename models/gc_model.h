/* gc_model.h - the common interface of granucal's contact force-displacement models.
 *
 * As LAMMPS composes its granular models, a contact law (gc_law) composes one sub-model of each
 * kind: normal, damping, tangential, rolling, twisting (a kind may be "none").  Every
 * sub-model is a const table (gc_submodel): name, kind, description, history size, the
 * parameters it reads, check, setup and a kind-specific step; it lives in ONE file of
 * models/, defined as "const gc_submodel gc_KIND_NAME = {", and the registry's rows are
 * generated from the source list of models/Makefile.am (registry_rows.awk).  Adding a
 * sub-model = one file + one line in models/Makefile.am.  The historical model names (hertz,
 * lsd, tsuji, wb, thornton, md, vqz, ep) are presets, i.e. compositions (models/registry.c),
 * and any normal sub-model composes with any damping ("ep+tsuji", gc_law_compose).
 * Sub-models are displacement driven and keep their loading history in one block of doubles
 * per contact owned by the caller; the law assigns each sub-model its slice.  Every parameter
 * is described once, in models/params.c.
 * Models never print, allocate or touch global state; every function that can fail returns a
 * GC_* status code.  All quantities are SI: m, N, Pa, kg, s.
 *
 * Reference: X. Zhang (1998), dissertation, Univ. of Florida ("the seed"), chapters 3-8, and
 * ../shared/MODELS.md.  Equation numbers in comments are the dissertation's.
 */
#ifndef GC_MODEL_H
#define GC_MODEL_H

#include <stddef.h>

/* Status codes (GSL style: 0 is success). */
enum {
  GC_SUCCESS = 0,
  GC_EINVAL = 1,  /* a parameter or an input is out of its allowed range */
  GC_ENOCONV = 2, /* an iterative solver did not converge */
  GC_ENOMEM = 3,  /* allocation failed */
  GC_EIO = 4,     /* file could not be read or written */
  GC_EFORMAT = 5, /* malformed input file */
  GC_ENOTSUP = 6, /* operation not supported by this model */
  GC_ENAN = 7,    /* a non-finite number appeared */
  GC_EPHYS = 8    /* the result breaks physics (energy created) or leaves the model's validity
                    * (an overlap beyond GC_ALPHA_R_MAX R*) */
};

/* Bound of every normal model's geometry: an overlap alpha above GC_ALPHA_R_MAX R* has left the
 * contact laws.  Hertz theory (ch. 3.1) and the elasto-plastic model built on it (ch. 6) assume a
 * contact radius small against the radius, a = sqrt(R* alpha) << R*; at alpha = 0.5 R* the
 * contact radius is 0.71 R* and a sphere on a plane is pressed in by half its radius, so nothing
 * of the half-space idealisation is left.  The dissertation's FEA validates alpha/R = 0.0022
 * (aluminium, fig. 6.3-6.5) and 0.008 (soybean, fig. E.4); its own chute goes further: a bean
 * (R = 2.75 mm, 0.149 g) striking a 1.5 mm bottom bead at the 1.7 m/s of a fall from the fill
 * height reaches alpha = 9.7e-5 m = 0.1 R* (R* = 0.97 mm).  So the bound sits well above what
 * a calibrated model meets in use and refuses runs that have left the model (E far too small,
 * a load far too large, particles passing through each other). */
#define GC_ALPHA_R_MAX 0.5

const char *gc_strerror(int status);

/* Reloading rule of the elasto-plastic NFD model (see MODELS.md). */
enum {
  GC_RELOAD_CONTINUOUS = 0, /* default: elastic reload along the unloading curve up to P_max */
  GC_RELOAD_LITERAL = 1     /* eq. 6.16-6.18 read literally: virgin curve shifted by alpha_res */
};

/* Parameters of one pair of bodies in contact.  Body 1 is always a sphere; body 2 is a sphere
 * or, when R2 = 0 (infinite radius), a plane; when E2 = 0 body 2 is rigid (negative values are
 * refused by every reader).  A model uses only
 * the fields it needs and its check() rejects the ones it needs when they are out of range.
 * Use gc_params_default() to initialise: unused fields are then 0. */
typedef struct {
  double R1, R2;   /* sphere radii [m]; R2 = 0: flat (1/R2 = 0) */
  double E1, E2;   /* Young's moduli [Pa]; E2 = 0: rigid */
  double nu1, nu2; /* Poisson's ratios [-], in (-1, 0.5) */
  double sY1, sY2; /* uniaxial yield stresses [Pa]; sY2 <= 0: body 2 does not yield */
  double P_Y;      /* incipient yield force [N]; > 0 overrides the value derived from sY */
  double C_a;      /* plastic contact-radius coefficient [m/N] (eq. 6.3) */
  double K_c;      /* curvature-correction coefficient [1/N] (eq. 6.13) */
  double mu;       /* Coulomb friction coefficient [-] */
  double k_n, c_n; /* linear spring-dashpot normal stiffness [N/m] and damping [N s/m] (eq. 4.1) */
  double k_t, c_t; /* linear spring-dashpot tangential stiffness [N/m], damping [N s/m] (eq. 4.2) */
  double e_n;   /* normal restitution coefficient [-] in (0, 1] (Walton-Braun K2, Tsuji damping) */
  double m_eff; /* effective mass of the pair [kg] (Tsuji damping) */
  double alpha_c; /* Hunt-Crossley damping factor [s/m]: P = P_el (1 + 3/2 alpha_c alpha_dot) */
  int tension;    /* damping: 0 (default) the normal force is clipped at 0 (no tension);
                      * 1 the dashpot may pull (P < 0) until the overlap vanishes */
  int reload;     /* GC_RELOAD_* (elasto-plastic NFD) */
  int tfd_transitions; /* 1: Vu-Quoc-Zhang varying-P transitions (ch. 5); 0: Mindlin-Deresiewicz
                        * constant-P stiffness only (eq. 3.24) */
  double kt_ratio;     /* K_T0 / (2 E* a), the ratio of the initial tangential stiffness to the
                      * tangent normal stiffness dP/dalpha = 2 E* a (K_T0 / K1 for Walton-Braun);
                      * 0 (default): derived from nu, 2(1-nu)/(2-nu) for like materials
                      * (eq. 3.25, 4.8, 8.5).  2/7 gives the "special material" of app. C
                      * (eq. C.32-C.33) without the unphysical nu = 0.8333 of sec. 5.5.1/8.4.2. */
  double mu_r;         /* rolling resistance coefficient [-]: |M_r| <= mu_r R* P (seed 004's eta) */
  double beta_r; /* rolling stiffness coefficient [-]: K_r = beta_r R*^2 K_T0 (seed 004's beta) */
  double w_reg;  /* regularisation angular speed of the constant-torque rolling / twisting
                      * models [rad/s]: the torque grows linearly up to its limit over |w| < w_reg */
} gc_params;

void gc_params_default(gc_params *p);

/* Derived constants of a pair, computed once by gc_pair_setup (and the model's setup()). */
typedef struct {
  gc_params p;      /* copy of the parameters */
  double E_star;    /* eq. 3.1 [Pa] */
  double R_star;    /* eq. 3.2 [m] */
  double G_star;    /* [(2-nu1)/G1 + (2-nu2)/G2]^-1 [Pa] (eq. 3.25 without the 8a) */
  double nu_t;      /* Poisson ratio used in K_T0 = 4 a E* (1-nu)/(2-nu) (eq. 8.5): nu1 */
  double A_Y;       /* A_Y(nu) of the body that yields first (eq. 3.20) */
  double P_Y;       /* incipient yield force [N] (eq. 6.19-6.21) */
  double p_y;       /* contact yield pressure A_Y sY [Pa] (Thornton's p_y) */
  double alpha_Y;   /* displacement at incipient yield [m] */
  double s_Y, a_Y;  /* P_Y^(1/3) [N^1/3] and the Hertz contact radius at yield C P_Y^(1/3) [m]
                       * (eq. 6.23), kept so that the elasto-plastic step needs no cube root of P_Y */
  double C;         /* Hertz a = C P^(1/3) constant, (3 R* / (4 E*))^(1/3) [m N^-1/3] (eq. 6.28) */
  double k_hertz;   /* P = k_hertz alpha^(3/2): (4/3) E* sqrt(R*) [N m^-3/2] */
  double K2;        /* Walton-Braun unloading stiffness K1 / e^2 [N/m] (eq. 4.5) */
  double beta_damp; /* Tsuji: -eta / sqrt(5), eta = the exact Hertz inversion of e_n
                       * (models/restitution.c), so that 2 sqrt(5/6) (-beta) sqrt(2 E* a m*) =
                       * eta sqrt(m* k_hertz) alpha^(1/4); ln e / sqrt(ln^2 e + pi^2) before */
  double c_damp;    /* linear_e: dashpot 2 zeta sqrt(m* k_n) from the exact e(zeta) [N s/m] */
  /* Per-pair factors of per-contact formulas, set with the quantities they are made of, so that
   * a step multiplies instead of recomputing them: */
  double kt0_c;   /* K_T0 / (a E_t) = 8 G* / E* (eq. 3.25, 8.5), or 2 kt_ratio (gc_k_t0) */
  double tsuji_c; /* 2 sqrt(5/6) (-beta_damp) sqrt(m*): the Tsuji dashpot of a spring of
                       * stiffness k is tsuji_c sqrt(k) [N s/m] (gc_tsuji_coefficient) */
} gc_pair;

/* Normal step result: everything a TFD model may need from the NFD model. */
typedef struct {
  double P;    /* normal force [N], >= 0 */
  double a_e;  /* elastic contact radius [m] (eq. 3.6 / 6.35) */
  double a_p;  /* plastic contact radius [m] (eq. 6.3) */
  double a;    /* total contact radius a_ep = a_e + a_p [m] (eq. 6.2) */
  double E_t;  /* modulus for the tangential stiffness: E* or (E*)_ep (eq. 8.3, 8.6) [Pa] */
  double k_n;  /* current tangent normal stiffness dP/dalpha [N/m] */
  double k_t0; /* initial tangential stiffness K_T0 this NFD model implies [N/m]:
                    * 8 a G* (eq. 3.25) for Hertz-based models, K1 2(1-nu)/(2-nu) (eq. 4.8) for
                    * Walton-Braun, 4 a_ep (E*)_ep (1-nu)/(2-nu) (eq. 8.5) for the EP model */
  int plastic; /* 1 if the contact has yielded */
  int loading; /* 1 on a loading branch */
} gc_normal;

/* Tangential step result. */
typedef struct {
  double Q;      /* tangential force [N], |Q| <= mu P */
  double K_T;    /* tangential stiffness used in the step [N/m] */
  double delta;  /* tangential displacement after the step [m] */
  int nonsimple; /* 1 if this step was a non-simple loading step */
  int sliding;   /* 1 if |Q| = mu P */
} gc_tangential;

/* ------------------------------------------------------------------ per-contact history
 *
 * A contact's history is ONE block of doubles, gc_law_history_size(law) long, owned by the
 * caller (allocated once per contact, never per step).  A ZEROED block is the virgin state of
 * every sub-model (a rule for every new sub-model too), so calloc'ed or memset histories are
 * valid; gc_law_history_init zeroes one.
 * The law assigns each sub-model a slice of the block (gc_law.off[kind]).  Counters and flags
 * are stored as integer-valued doubles (exact up to 2^53), so a block is plain data: it can be
 * copied, zeroed, written to a checkpoint and read back.
 *
 * Every normal sub-model's slice begins with gc_hist_normal and every tangential sub-model's
 * with gc_hist_tangential: these are the fields a simulator may read (and, for the 3-D
 * projection of the chute, mirror); the rest of a slice is private to its sub-model. */
#define GC_HIST_NORMAL_FIELDS                                                                      \
  double alpha;     /* last accepted normal displacement [m] */                                    \
  double P;         /* last normal force [N] (after damping) */                                    \
  double alpha_max; /* displacement at the last turning point [m] */                               \
  double P_max;     /* largest force of the force-displacement curve [N] */                        \
  double alpha_res; /* residual displacement of the current unloading curve [m] */                 \
  double loading;   /* 1 while P increases (P_inc of Algorithm 6.1) */                             \
  double in_contact /* 1 after a step with alpha > 0 */

typedef struct {
  GC_HIST_NORMAL_FIELDS;
} gc_hist_normal;

typedef struct {
  double delta;       /* tangential displacement [m] */
  double Q;           /* tangential force [N] */
  double Q_star;      /* force at the last turning point Q* [N] */
  double P_t;         /* normal force at the previous tangential step [N] */
  double q_dir;       /* +1 Q increasing, -1 Q decreasing, 0 virgin */
  double sliding;     /* 1 if |Q| reached mu P in the last step */
  double n_steps_t;   /* tangential steps taken */
  double n_nonsimple; /* non-simple steps (|dQ| < mu |dP|, eq. 3.30 / 3.45) */
} gc_hist_tangential;

#define GC_HIST_NORMAL_SIZE (sizeof(gc_hist_normal) / sizeof(double))
#define GC_HIST_TANGENTIAL_SIZE (sizeof(gc_hist_tangential) / sizeof(double))
/* Largest history of any law built from the registry [doubles] (tests/test_models.c checks it);
 * single-contact tools may use a stack array of this size. */
#define GC_HIST_MAX 32
/* Version of the layout of the history blocks; a checkpoint written with another version is
 * refused.  Bump it whenever a sub-model's history changes. */
#define GC_HIST_LAYOUT_VERSION 1

/* ------------------------------------------------------------------ parameters
 *
 * ONE table (models/params.c) describes every field of gc_params: card key, name in messages,
 * unit, allowed range, equation and help.  The card reader, the range checks of every
 * sub-model, --help, `granucal models` and the fit's parameter set all read it.
 *
 * The rule for "absent" values is stated once, here: R2 = 0 is a plane, E2 = 0 a rigid body 2,
 * sY2 = 0 a body 2 that does not yield, P_Y = 0 "derive P_Y from sY", kt_ratio = 0 "derive
 * from nu"; a NEGATIVE value of any of them is out of range and refused by every reader (drop,
 * impact, contact, chute, fit) with the table's message. */
typedef enum {
  GC_PAR_R1,
  GC_PAR_R2,
  GC_PAR_E1,
  GC_PAR_E2,
  GC_PAR_NU1,
  GC_PAR_NU2,
  GC_PAR_SY1,
  GC_PAR_SY2,
  GC_PAR_P_Y,
  GC_PAR_C_A,
  GC_PAR_K_C,
  GC_PAR_MU,
  GC_PAR_K_N,
  GC_PAR_C_N,
  GC_PAR_K_T,
  GC_PAR_C_T,
  GC_PAR_E_N,
  GC_PAR_M_EFF,
  GC_PAR_KT_RATIO,
  GC_PAR_RELOAD,
  GC_PAR_TFD_TRANSITIONS,
  GC_PAR_MU_R,
  GC_PAR_BETA_R,
  GC_PAR_W_REG,
  GC_PAR_ALPHA_C,
  GC_PAR_TENSION,
  GC_NPAR
} gc_param_id;

typedef struct {
  const char *name;       /* name in gc_params and in messages, e.g. "nu1" */
  const char *key;        /* card / --set key, e.g. "nu" (name is accepted too) */
  size_t offset;          /* offsetof(gc_params, ...) */
  int is_int;             /* 1: an int field (reload, tfd_transitions) */
  const char *unit;       /* SI unit, "-" for none */
  double lo, hi;          /* allowed range (finite values only) */
  int lo_open, hi_open;   /* 1: the end is excluded */
  const char *range_note; /* what the special end value means, or NULL, e.g. "0: plane" */
  const char *equation;   /* the dissertation's equation, or the source */
  const char *help;       /* one line */
} gc_param_def;

const gc_param_def *gc_param_def_at(gc_param_id id); /* NULL if id >= GC_NPAR */
/* By name or card key (case-sensitive); NULL if unknown. */
const gc_param_def *gc_param_lookup(const char *name_or_key);
gc_param_id gc_param_id_of(const gc_param_def *d);
double gc_param_get(const gc_params *p, gc_param_id id);
void gc_param_put(gc_params *p, gc_param_id id, double v);
/* "(0, inf) m" / "(-1, 0.5)" / "an integer in [1, 100]" / "{0, 1}": a range and its unit as
 * every message prints it ("allowed range R", "X = V out of range R"); "-" or "" is no unit. */
void gc_range_text(double lo, double hi, int lo_open, int hi_open, int integer, const char *unit,
                   char *buf, size_t n);
/* The table's range of id by gc_range_text. */
void gc_param_range_text(gc_param_id id, char *buf, size_t n);
/* Is v in the table's range? */
int gc_param_in_range(gc_param_id id, double v);
/* Check p's value of id; on failure writes "KEY = V out of range RANGE UNIT[ (NOTE)]" (KEY: the
 * card key, the name users write) and
 * returns GC_EINVAL. */
int gc_param_check(const gc_params *p, gc_param_id id, char *msg, size_t msglen);

/* ------------------------------------------------------------------ sub-models */

typedef enum {
  GC_KIND_NORMAL = 0,
  GC_KIND_DAMPING,
  GC_KIND_TANGENTIAL,
  GC_KIND_ROLLING,
  GC_KIND_TWISTING,
  GC_NKINDS
} gc_kind;

const char *gc_kind_name(gc_kind k); /* "normal", "damping", ... */

/* Sub-model flags. */
enum {
  GC_SUB_NONE = 1u,   /* the "none" row of its kind: does nothing, adds no force */
  GC_SUB_LINEAR = 2u, /* normal: the force is linear in alpha (contact time = linear half period) */
  /* normal: the force depends on the history header (turning point, last force: ep, thornton,
   * wb); a damping composed with it adds its force to the step's result but records into a
   * copy of the header, so that the header keeps the elastic-plastic state and the normal
   * force of the next step is the one of the undamped curve */
  GC_SUB_HIST_DRIVEN = 4u
};

#define GC_SUB_MAXPAR 16

typedef struct gc_submodel gc_submodel;
struct gc_submodel {
  const char *name; /* unique within its kind, e.g. "hertz" */
  gc_kind kind;
  const char *description; /* one line, with the source */
  unsigned flags;          /* GC_SUB_* */
  size_t hist_size;        /* doubles of per-contact history (>= the kind's header) */
  /* Parameters this sub-model reads, GC_NPAR-terminated; each is range-checked from the
   * parameter table by gc_law_init before check() runs. */
  gc_param_id params[GC_SUB_MAXPAR];
  /* Rules the table cannot state (one parameter depending on another, e.g. "sY1 or P_Y");
   * on failure writes a message naming the parameter and its range. May be NULL. */
  int (*check)(const gc_params *p, char *msg, size_t msglen);
  /* Derived constants into pair (pair->p and the Hertz constants are set). May be NULL. */
  int (*setup)(gc_pair *pair, char *msg, size_t msglen);
  /* GC_KIND_NORMAL: force at the new overlap alpha [m] (> 0 in contact) and its rate [m/s].
   * Updates the gc_hist_normal header of h. */
  int (*normal)(const gc_pair *pair, double *h, double alpha, double alpha_dot, gc_normal *out);
  /* GC_KIND_NORMAL: contact duration [s] of a collision of two bodies with parameters p,
   * reduced mass m_eff [kg] at the normal speed v [m/s]: eq. 3.22 for the Hertz-type models,
   * the half period pi sqrt(m/k_n) for the linear ones.  GC_EINVAL if p lacks what it needs. */
  int (*contact_time)(const gc_params *p, double m_eff, double v, double *t);
  /* GC_KIND_DAMPING: adds the dissipative force to out->P after the normal step (hn is the
   * normal sub-model's header, h this sub-model's slice); P stays >= 0 unless the parameter
   * tension = 1 (then the tangential sub-models see max(P, 0), gc_law_tangential). */
  int (*damping)(const gc_pair *pair, gc_hist_normal *hn, double *h, double alpha, double alpha_dot,
                 gc_normal *out);
  /* GC_KIND_TANGENTIAL: normal state after this step's normal step (n), increment of the
   * tangential displacement d_delta [m], its rate [m/s] and the rolling distance ds_roll [m]
   * of this step (sec. 5.2; 0 if none).  h begins with gc_hist_tangential. */
  int (*tangential)(const gc_pair *pair, double *h, const gc_normal *n, double d_delta,
                    double delta_dot, double ds_roll, gc_tangential *out);
  /* GC_KIND_ROLLING / GC_KIND_TWISTING: resisting torque M [N m] on body 1 (-M on body 2), a
   * 3-vector in space axes, given the normal state no after this step's normal step, the unit
   * contact normal nvec (from body 1 towards body 2), the relative rotation increment of the
   * step d_theta = (w1 - w2) dt [rad] and the relative angular velocity w_rel = w1 - w2
   * [rad/s] (both full 3-vectors: a rolling model uses their part in the contact plane, a
   * twisting model their part along nvec).  Vectors, not scalars, because a rolling spring's
   * torque lies in the contact plane and has to be carried along when that plane turns (as
   * the chute carries Q, eq. 4.20); a planar simulator passes nvec in the plane and the
   * rotations along the normal of the plane. */
  int (*torque)(const gc_pair *pair, double *h, const gc_normal *no, const double nvec[3],
                const double d_theta[3], const double w_rel[3], double M[3]);
};

/* Registry (models/registry.c): every sub-model, one row each. */
size_t gc_submodel_count(void);
const gc_submodel *gc_submodel_at(size_t i);
const gc_submodel *gc_submodel_lookup(gc_kind kind, const char *name);
const gc_submodel *gc_submodel_none(gc_kind kind);
/* 1 if the sub-model reads parameter id. */
int gc_submodel_reads(const gc_submodel *m, gc_param_id id);
/* The checks gc_law_init runs for one sub-model: every parameter it reads against the table,
 * then its own rule (check). */
int gc_submodel_check(const gc_submodel *m, const gc_params *p, char *msg, size_t msglen);

/* The registry's rows (for tests and for composing a law directly). */
extern const gc_submodel gc_normal_hertz, gc_normal_lsd, gc_normal_wb, gc_normal_thornton,
    gc_normal_ep;
extern const gc_submodel gc_damping_none, gc_damping_linear, gc_damping_tsuji, gc_damping_linear_e,
    gc_damping_hunt_crossley;
extern const gc_submodel gc_tangential_none, gc_tangential_lsd, gc_tangential_tsuji,
    gc_tangential_wb, gc_tangential_md, gc_tangential_vqz, gc_tangential_ep, gc_tangential_mindlin,
    gc_tangential_brendel_dippel;
extern const gc_submodel gc_rolling_none, gc_rolling_spring, gc_rolling_const;
extern const gc_submodel gc_twisting_none, gc_twisting_spring, gc_twisting_const;

/* Presets: the model names of the command line, cards and chute cards, as compositions.  A
 * preset with a normal part can be given as the normal model (-m, "model ="), one with a
 * tangential part as the tangential model (-t, "tfd ="). */
typedef struct {
  const char *name; /* e.g. "tsuji" */
  const char *description;
  const char *normal;     /* sub-model names, NULL: the preset has no such part */
  const char *damping;    /* with the normal part; NULL: none */
  const char *tangential; /* NULL: no tangential part */
} gc_preset;

size_t gc_preset_count(void);
const gc_preset *gc_preset_at(size_t i);
/* A preset by name, or a composition of a normal and a damping sub-model by its name
 * "NORMAL+DAMPING" (gc_preset_compose); NULL if neither. */
const gc_preset *gc_preset_lookup(const char *name);
/* The registered sub-model of kind k that preset ps names (NULL if it has no such part; the
 * "none" row for a missing damping). */
const gc_submodel *gc_preset_part(const gc_preset *ps, gc_kind k);
/* The normal and tangential presets of a law from the names a user gave (NULL: not given) and
 * those a parameter file names (file_normal, file_tangential; NULL or "": none).  The normal
 * model defaults to the file's, else "ep"; the tangential one to the file's, else the normal
 * preset's own tangential part (ep -> ep, tsuji -> tsuji), else none; "none" is frictionless
 * (*tfd = NULL).  GC_EINVAL if a name is not a preset of that part, with *bad the name and
 * *bad_kind GC_KIND_NORMAL or GC_KIND_TANGENTIAL. */
int gc_preset_resolve(const char *normal, const char *tangential, const char *file_normal,
                      const char *file_tangential, const gc_preset **nfd, const gc_preset **tfd,
                      const char **bad, gc_kind *bad_kind);

/* Composition by keys (normal =, damping =, tangential =, rolling =, twisting =, or --normal
 * ... on a command line).  gc_preset_compose: the static preset "NORMAL+DAMPING" of those two
 * sub-models (no tangential part), NULL if either is not registered.  gc_preset_of_tangential:
 * the static preset with just that tangential sub-model, NULL if it is not registered. */
const gc_preset *gc_preset_compose(const char *normal, const char *damping);
const gc_preset *gc_preset_of_tangential(const char *tangential);
/* Apply the sub-models named per kind (sub[k], NULL: not given) to a law resolved from presets
 * (gc_preset_resolve; *rolling, *twisting as chosen before, NULL: none).  A kind not named
 * keeps the preset's part: the normal and damping parts come from *nfd ("model ="), so
 * "damping = tsuji" alone gives ep+tsuji; "tangential = none" is frictionless (*tfd = NULL).
 * Names repeating *nfd's parts leave *nfd as it is.  GC_EINVAL with *bad_kind the kind whose
 * name sub[*bad_kind] is not a registered sub-model of that kind. */
int gc_law_compose(const char *const sub[GC_NKINDS], const gc_preset **nfd, const gc_preset **tfd,
                   const gc_submodel **rolling, const gc_submodel **twisting, gc_kind *bad_kind);
/* The names of the sub-models of kind, "a, b, c", into buf (truncated to n); returns the
 * length of the full list. */
size_t gc_submodel_names(gc_kind kind, char *buf, size_t n);

/* ------------------------------------------------------------------ the contact law
 *
 * One sub-model of each kind (a kind may be its "none" row), the history layout and the pair
 * constants.  Built once per material pair; shared read-only by all contacts of the pair. */
typedef struct {
  const gc_submodel *sub[GC_NKINDS]; /* never NULL after gc_law_init */
  size_t off[GC_NKINDS];             /* offset of each slice in the history block [doubles];
                                      * the normal slice is always first (off = 0) */
  size_t nhist;                      /* doubles per contact */
  const char *name_normal;           /* for messages: preset or sub-model names */
  const char *name_tangential;       /* "none" when frictionless */
  int hertz_mindlin;                 /* 1: normal hertz, damping tsuji, tangential tsuji, no
                                      * rolling or twisting (Hertz-Mindlin with Tsuji damping,
                                      * the law most DEM codes run): gc_contact3_step calls
                                      * their steps directly, not through the table (contact3.c;
                                      * the same numbers) */
  gc_pair pair;
} gc_law;

/* Compose a law from one sub-model per kind (NULL entries: that kind's "none").  Checks every
 * parameter the sub-models read against the table, then the sub-models' own rules, then sets
 * up the pair constants.  On failure msg names the parameter and its allowed range. */
int gc_law_init(gc_law *law, const gc_submodel *const sub[GC_NKINDS], const gc_params *p, char *msg,
                size_t msglen);
/* From presets: the normal and damping parts of nfd, the tangential part of tfd (NULL:
 * frictionless).  GC_EINVAL if nfd has no normal part or tfd no tangential part. */
int gc_law_init_preset(gc_law *law, const gc_preset *nfd, const gc_preset *tfd, const gc_params *p,
                       char *msg, size_t msglen);
size_t gc_law_history_size(const gc_law *law);
void gc_law_history_init(const gc_law *law, double *h);
/* The headers of the normal and tangential slices of a contact's block. */
static inline gc_hist_normal *gc_law_hist_normal(const gc_law *law, double *h)
{
  return (gc_hist_normal *)(h + law->off[GC_KIND_NORMAL]);
}
static inline gc_hist_tangential *gc_law_hist_tangential(const gc_law *law, double *h)
{
  return (gc_hist_tangential *)(h + law->off[GC_KIND_TANGENTIAL]);
}
/* 1 if the law has a tangential sub-model other than "none" (inline: asked per contact step). */
static inline int gc_law_frictional(const gc_law *law)
{
  return !(law->sub[GC_KIND_TANGENTIAL]->flags & GC_SUB_NONE);
}
/* 1 if the normal sub-model is linear (GC_SUB_LINEAR). */
int gc_law_linear(const gc_law *law);
/* Contact duration of the law's normal sub-model for reduced mass m_eff at speed v. */
int gc_law_contact_time(const gc_law *law, double m_eff, double v, double *t);

int gc_law_normal(const gc_law *law, double *h, double alpha, double alpha_dot, gc_normal *out);
/* The largest overlap within the model's validity, GC_ALPHA_R_MAX R* [m] (infinite when the
 * law has no radius, R1 = 0: a linear spring given by k_n alone). */
double gc_law_overlap_limit(const gc_law *law);
/* GC_EPHYS with msg "at t = T s the overlap alpha = A m is alpha/R* = X, beyond the geometric
 * validity alpha <= 0.1 R* (R* = ... m) of the contact laws: CAUSE" when alpha is beyond
 * gc_law_overlap_limit (or not finite), else GC_SUCCESS.  cause (may be NULL) names the likely
 * cause for the caller's input (e.g. "E too small or the load too large"). */
int gc_law_overlap_check(const gc_law *law, double t, double alpha, const char *cause, char *msg,
                         size_t msglen);
int gc_law_tangential(const gc_law *law, double *h, const gc_normal *n, double d_delta,
                      double delta_dot, double ds_roll, gc_tangential *out);
/* 1 if the law has a rolling / a twisting sub-model other than "none" (simulators skip the
 * relative rotation otherwise, so that results without them stay bit for bit). */
static inline int gc_law_rolls(const gc_law *law)
{
  return !(law->sub[GC_KIND_ROLLING]->flags & GC_SUB_NONE);
}
static inline int gc_law_twists(const gc_law *law)
{
  return !(law->sub[GC_KIND_TWISTING]->flags & GC_SUB_NONE);
}
/* Rolling plus twisting torque on body 1 [N m] (space axes; -M on body 2); see the torque
 * member of gc_submodel for the arguments. */
int gc_law_torque(const gc_law *law, double *h, const gc_normal *no, const double nvec[3],
                  const double d_theta[3], const double w_rel[3], double M[3]);
/* Compose law from presets nfd, tfd (as gc_law_init_preset) plus a rolling and a twisting
 * sub-model (NULL: none). */
int gc_law_init_full(gc_law *law, const gc_preset *nfd, const gc_preset *tfd,
                     const gc_submodel *rolling, const gc_submodel *twisting, const gc_params *p,
                     char *msg, size_t msglen);

/* ------------------------------------------------------------------ a contact in 3-D
 *
 * The state of one contact between two bodies in space (seed sec. 4.2.3): the tangential force
 * vector carried from the previous step (eq. 4.10-4.11), the last normal force and overlap,
 * then the law's history block (gc_law_history_size doubles).  A record is plain doubles,
 * GC_CONTACT3_HEAD + nhist long; a zeroed record is a virgin contact. */
typedef struct {
  double Q[3];  /* tangential force on body 1 at the last step, space axes [N] */
  double P;     /* normal force at the last step [N] (0: not in contact) */
  double alpha; /* overlap at the last step [m] (0 when apart) */
  double h[];   /* the law's history block */
} gc_contact3;
#define GC_CONTACT3_HEAD 5

/* One step of a contact between body 1 and body 2.  alpha: overlap [m] (<= 0: apart); n: unit
 * normal from body 1 to body 2 (eq. 4.9); vrel = v_2(c) - v_1(c), the relative velocity of the
 * two bodies' material at the contact point [m/s]; wrel = w_1 - w_2 [rad/s] (read only when the
 * law rolls or twists); dt [s]; ds_roll the rolling distance of sec. 5.2 (0: none); keep: on
 * separation keep the history block (history at separation), else zero it.  Out: F the force
 * on body 1 [N] (-F on body 2; 0 when no force acts), M the rolling + twisting couple on body
 * 1 [N m], *active = 1 if a force acts, work[0], work[1] the normal and tangential work the
 * contact absorbed in the step [J] (trapezoid rule).  GC_ENAN on a non-finite input or
 * result (F is then not to be used). */
int gc_contact3_step(const gc_law *law, gc_contact3 *ct, double alpha, const double n[3],
                     const double vrel[3], const double wrel[3], double dt, double ds_roll,
                     int keep, double F[3], double M[3], int *active, double work[2]);

/* GC_CONTACT3_LANES contacts stepped at once, each exactly as gc_contact3_step steps it (the
 * same numbers to the bit, whatever the other lanes hold).  The Hertz-Mindlin contacts that
 * touch (law->hertz_mindlin, alpha > 0) go side by side through one loop over the lanes, which
 * the compiler turns into vector operations: their steps are long chains of square roots and
 * divisions that one contact after another cannot overlap, and their data-dependent tests
 * (slip, the peak force) become selects; every other lane is stepped by gc_contact3_step.
 * In: n lanes (n <= GC_CONTACT3_LANES) of law, ct, alpha, nvec, vrel, wrel, ds_roll, each lane
 * its own record ct (two lanes of one contact would not be two steps of it); dt and keep as
 * for gc_contact3_step.  Out: F, M, active, work and status of each lane (status GC_ENAN: a
 * non-finite input or result, the lane's record and outputs then not to be used). */
enum { GC_CONTACT3_LANES = 8 };
typedef struct {
  const gc_law *law[GC_CONTACT3_LANES];
  gc_contact3 *ct[GC_CONTACT3_LANES];
  double alpha[GC_CONTACT3_LANES];
  double nvec[GC_CONTACT3_LANES][3], vrel[GC_CONTACT3_LANES][3], wrel[GC_CONTACT3_LANES][3];
  double ds_roll[GC_CONTACT3_LANES];
  double F[GC_CONTACT3_LANES][3], M[GC_CONTACT3_LANES][3], work[GC_CONTACT3_LANES][2];
  int active[GC_CONTACT3_LANES], status[GC_CONTACT3_LANES];
} gc_contact3_lanes;
void gc_contact3_step_lanes(gc_contact3_lanes *b, int n, double dt, int keep);

/* The loop of gc_contact3_step_lanes for rows of any length n: the Hertz-Mindlin step (normal
 * hertz, damping tsuji, tangential tsuji; eq. 4.10-4.21) of n contacts that touch (alpha > 0,
 * first touch already set up), one array (row) per quantity in one block: quantity q
 * (GC_HM_*, the order below) of contact c is rows[q * stride + c] (stride >= n); each
 * contact's operations those of gc_contact3_step in its order.  For a code that keeps its
 * contacts' numbers in rows (tests/bench_kernel.c's passes) rather than in gc_contact3
 * records.  P, P_max, ... are read and written in place, contact by contact.
 * In: alpha [m]; N0..N2 the unit normal from body 1 to body 2; VREL0..VREL2 = v_2 - v_1 at the
 * contact point [m/s]; the pair's constants R_STAR .. MU (gc_pair's R_star, k_hertz, E_star,
 * kt0_c, tsuji_c, p.mu) and TENSION (1.0 if the law lets the normal force pull, else 0.0);
 * Q0..Q2 the record's tangential force (gc_contact3.Q), A its alpha of the last step.
 * In and out: P (gc_contact3.P), P_MAX, ALPHA_MAX (gc_hist_normal), TQ, Q_STAR, DELTA, Q_DIR,
 * N_STEPS (gc_hist_tangential's Q, Q_star, delta, q_dir, n_steps_t).
 * Out: QN0..QN2 the new tangential force, F0..F2 the force on body 1 [N], WORK_N, WORK_T the
 * normal and tangential work the contact absorbed [J], SLIDING, ACTIVE (1.0 / 0.0), OK (0.0:
 * a non-finite number; that contact's outputs then not to be used).  Returns GC_EINVAL, and
 * steps nothing, when stride < n (the rows would overlap), else GC_SUCCESS. */
enum {
  GC_HM_ALPHA,
  GC_HM_N0,
  GC_HM_N1,
  GC_HM_N2,
  GC_HM_VREL0,
  GC_HM_VREL1,
  GC_HM_VREL2,
  GC_HM_R_STAR,
  GC_HM_K_HERTZ,
  GC_HM_E_STAR,
  GC_HM_KT0_C,
  GC_HM_TSUJI_C,
  GC_HM_MU,
  GC_HM_TENSION,
  GC_HM_Q0,
  GC_HM_Q1,
  GC_HM_Q2,
  GC_HM_A,
  GC_HM_P,
  GC_HM_P_MAX,
  GC_HM_ALPHA_MAX,
  GC_HM_TQ,
  GC_HM_Q_STAR,
  GC_HM_DELTA,
  GC_HM_Q_DIR,
  GC_HM_N_STEPS,
  GC_HM_QN0,
  GC_HM_QN1,
  GC_HM_QN2,
  GC_HM_F0,
  GC_HM_F1,
  GC_HM_F2,
  GC_HM_WORK_N,
  GC_HM_WORK_T,
  GC_HM_SLIDING,
  GC_HM_ACTIVE,
  GC_HM_OK,
  GC_HM_NROWS
};
int gc_hm_rows_step(double *rows, size_t stride, size_t n, double dt);

/* ------------------------------------------------------------------ shared physics */

/* Hertz constants of a pair: E*, R*, G*, C, k_hertz; validates the elastic parameters. */
int gc_pair_setup(gc_pair *pair, const gc_params *p, char *msg, size_t msglen);
/* Largest mass [kg] and density [kg/m^3] granucal accepts for a particle: 1e308 kg (a typo)
 * would overflow every derived time.  The mass bound admits the "infinitely heavy" partner of
 * Chung & Ooi's test 8 (sphere 2 of R 0.5 m 1000x denser than aluminium: m2 = 1.41e6 kg, given
 * as m2, not as a density), so it is 1e9 kg rather than a grain's scale. */
#define GC_MASS_MAX 1e9
#define GC_DENSITY_MAX 1e5
/* Check the elastic parameters common to all physically-based models. */
int gc_check_elastic(const gc_params *p, char *msg, size_t msglen);
/* A_Y(nu) = p_m / sqrt(3 J2_max) from the Hertz field on the axis (eq. 3.11-3.20).  Allocates
 * nothing and touches no global state (the largest value on a fixed grid of depths; see
 * common.c).  GC_EINVAL for nu outside (-1, 0.5); *A_Y is NaN after an error (set on every
 * path, so that an -flto build's maybe-uninitialized warning has nothing to find). */
int gc_yield_coefficient(double nu, double *A_Y);
/* Incipient yield force for the pair (eq. 6.19-6.21): the smaller over the bodies that yield. */
int gc_yield_force(const gc_pair *pair, double *P_Y, double *A_Y);
/* eq. 6.19, P_Y = pi^3 R*^2 p_y^3 / (6 E*^2), with the contact yield pressure p_y = A_Y sY,
 * and its inverse p_y = (6 E*^2 P_Y / (pi^3 R*^2))^(1/3). */
double gc_yield_force_of_pressure(double p_y, double R_star, double E_star);
double gc_yield_pressure_of_force(double P_Y, double R_star, double E_star);
/* eq. 3.22 (Timoshenko & Goodier): Hertz contact duration tau = 2.87 (m*^2/(R* E*^2 v))^(1/5). */
double gc_hertz_contact_time(double m_eff, double R_star, double E_star, double v);

#endif
