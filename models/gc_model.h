/* gc_model.h - the common interface of granucal's contact force-displacement models.
 *
 * A contact law is a normal force-displacement (NFD) model paired with a tangential one (TFD).
 * Every model is a small table of function pointers (in the manner of LAMMPS's granular
 * sub-models): a parameter check, a per-pair set-up of derived constants, a per-contact state
 * initialisation and the incremental normal and/or tangential steps.  Models are displacement
 * driven and keep their loading history in a gc_state owned by the caller, one per contact.
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
  GC_EINVAL = 1,   /* a parameter or an input is out of its allowed range */
  GC_ENOCONV = 2,  /* an iterative solver did not converge */
  GC_ENOMEM = 3,   /* allocation failed */
  GC_EIO = 4,      /* file could not be read or written */
  GC_EFORMAT = 5,  /* malformed input file */
  GC_ENOTSUP = 6,  /* operation not supported by this model */
  GC_ENAN = 7      /* a non-finite number appeared */
};

const char *gc_strerror(int status);

/* Reloading rule of the elasto-plastic NFD model (see MODELS.md). */
enum {
  GC_RELOAD_CONTINUOUS = 0, /* default: elastic reload along the unloading curve up to P_max */
  GC_RELOAD_LITERAL = 1     /* eq. 6.16-6.18 read literally: virgin curve shifted by alpha_res */
};

/* Parameters of one pair of bodies in contact.  Body 1 is always a sphere; body 2 is a sphere
 * or, when R2 <= 0 (infinite radius), a plane; when E2 <= 0 body 2 is rigid.  A model uses only
 * the fields it needs and its check() rejects the ones it needs when they are out of range.
 * Use gc_params_default() to initialise: unused fields are then 0. */
typedef struct {
  double R1, R2;     /* sphere radii [m]; R2 <= 0: flat (1/R2 = 0) */
  double E1, E2;     /* Young's moduli [Pa]; E2 <= 0: rigid */
  double nu1, nu2;   /* Poisson's ratios [-], in (-1, 0.5) */
  double sY1, sY2;   /* uniaxial yield stresses [Pa]; sY2 <= 0: body 2 does not yield */
  double P_Y;        /* incipient yield force [N]; > 0 overrides the value derived from sY */
  double C_a;        /* plastic contact-radius coefficient [m/N] (eq. 6.3) */
  double K_c;        /* curvature-correction coefficient [1/N] (eq. 6.13) */
  double mu;         /* Coulomb friction coefficient [-] */
  double k_n, c_n;   /* linear spring-dashpot normal stiffness [N/m] and damping [N s/m] (eq. 4.1) */
  double k_t, c_t;   /* linear spring-dashpot tangential stiffness [N/m], damping [N s/m] (eq. 4.2) */
  double e_n;        /* normal restitution coefficient [-] in (0, 1] (Walton-Braun K2, Tsuji damping) */
  double m_eff;      /* effective mass of the pair [kg] (Tsuji damping) */
  int reload;        /* GC_RELOAD_* (elasto-plastic NFD) */
  int tfd_transitions; /* 1: Vu-Quoc-Zhang varying-P transitions (ch. 5); 0: Mindlin-Deresiewicz
                        * constant-P stiffness only (eq. 3.24) */
  double kt_ratio;   /* K_T0 / (2 E* a), the ratio of the initial tangential stiffness to the
                      * tangent normal stiffness dP/dalpha = 2 E* a (K_T0 / K1 for Walton-Braun);
                      * 0 (default): derived from nu, 2(1-nu)/(2-nu) for like materials
                      * (eq. 3.25, 4.8, 8.5).  2/7 gives the "special material" of app. C
                      * (eq. C.32-C.33) without the unphysical nu = 0.8333 of sec. 5.5.1/8.4.2. */
} gc_params;

void gc_params_default(gc_params *p);

/* Derived constants of a pair, computed once by gc_pair_setup (and the model's setup()). */
typedef struct {
  gc_params p;        /* copy of the parameters */
  double E_star;      /* eq. 3.1 [Pa] */
  double R_star;      /* eq. 3.2 [m] */
  double G_star;      /* [(2-nu1)/G1 + (2-nu2)/G2]^-1 [Pa] (eq. 3.25 without the 8a) */
  double nu_t;        /* Poisson ratio used in K_T0 = 4 a E* (1-nu)/(2-nu) (eq. 8.5): nu1 */
  double A_Y;         /* A_Y(nu) of the body that yields first (eq. 3.20) */
  double P_Y;         /* incipient yield force [N] (eq. 6.19-6.21) */
  double p_y;         /* contact yield pressure A_Y sY [Pa] (Thornton's p_y) */
  double alpha_Y;     /* displacement at incipient yield [m] */
  double C;           /* Hertz a = C P^(1/3) constant, (3 R* / (4 E*))^(1/3) [m N^-1/3] (eq. 6.28) */
  double k_hertz;     /* P = k_hertz alpha^(3/2): (4/3) E* sqrt(R*) [N m^-3/2] */
  double K2;          /* Walton-Braun unloading stiffness K1 / e^2 [N/m] (eq. 4.5) */
  double beta_damp;   /* Tsuji: damping ratio factor ln e / sqrt(ln^2 e + pi^2) */
} gc_pair;

/* Per-contact history.  Zero it with gc_state_init(); never shared between contacts. */
typedef struct {
  /* normal */
  double alpha;       /* last accepted normal displacement [m] */
  double P;           /* last normal force [N] */
  double alpha_max;   /* displacement at the last turning point [m] */
  double P_max;       /* largest force reached [N] */
  double alpha_res;   /* residual displacement of the current unloading curve [m] */
  double a_p;         /* plastic part of the contact radius [m] (eq. 6.3) */
  double CR_max;      /* C_R(P_max) (eq. 6.13) */
  double R_p;         /* current unloading curvature radius [m] (Thornton R*_p) */
  double alpha_shift; /* literal reloading: shift of the virgin curve [m] */
  double P_prev2, alpha_prev2; /* for the Newton predictor (eq. 6.32) */
  int loading;        /* 1 while P increases (P_inc of Algorithm 6.1) */
  int in_contact;
  /* tangential */
  double delta;       /* tangential displacement [m] */
  double Q;           /* tangential force [N] */
  double Q_star;      /* force at the last turning point Q* [N] */
  double P_t;         /* normal force at the previous tangential step [N] */
  int q_dir;          /* +1 Q increasing, -1 Q decreasing, 0 virgin */
  int sliding;        /* 1 if |Q| reached mu P in the last step */
  long n_steps_t;     /* tangential steps taken */
  long n_nonsimple;   /* non-simple steps (|dQ| < mu |dP|, eq. 3.30 / 3.45) */
} gc_state;

/* Normal step result: everything a TFD model may need from the NFD model. */
typedef struct {
  double P;        /* normal force [N], >= 0 */
  double a_e;      /* elastic contact radius [m] (eq. 3.6 / 6.35) */
  double a_p;      /* plastic contact radius [m] (eq. 6.3) */
  double a;        /* total contact radius a_ep = a_e + a_p [m] (eq. 6.2) */
  double E_t;      /* modulus for the tangential stiffness: E* or (E*)_ep (eq. 8.3, 8.6) [Pa] */
  double k_n;      /* current tangent normal stiffness dP/dalpha [N/m] */
  double k_t0;     /* initial tangential stiffness K_T0 this NFD model implies [N/m]:
                    * 8 a G* (eq. 3.25) for Hertz-based models, K1 2(1-nu)/(2-nu) (eq. 4.8) for
                    * Walton-Braun, 4 a_ep (E*)_ep (1-nu)/(2-nu) (eq. 8.5) for the EP model */
  int plastic;     /* 1 if the contact has yielded */
  int loading;     /* 1 on a loading branch */
} gc_normal;

/* Tangential step result. */
typedef struct {
  double Q;        /* tangential force [N], |Q| <= mu P */
  double K_T;      /* tangential stiffness used in the step [N/m] */
  double delta;    /* tangential displacement after the step [m] */
  int nonsimple;   /* 1 if this step was a non-simple loading step */
  int sliding;     /* 1 if |Q| = mu P */
} gc_tangential;

/* Model flags */
enum { GC_MODEL_NORMAL = 1, GC_MODEL_TANGENTIAL = 2 };

typedef struct gc_model gc_model;
struct gc_model {
  const char *name;         /* command-line name, e.g. "ep" */
  const char *description;  /* one line, with the source */
  unsigned flags;           /* GC_MODEL_NORMAL and/or GC_MODEL_TANGENTIAL */
  /* Check the parameters this model needs; on failure write a message naming the parameter
   * and its allowed range into msg and return GC_EINVAL. */
  int (*check)(const gc_params *p, char *msg, size_t msglen);
  /* Fill the model-specific derived constants of pair (pair->p and the Hertz constants are
   * already set by gc_pair_setup). May be NULL. */
  int (*setup)(gc_pair *pair, char *msg, size_t msglen);
  /* Normal step: new displacement alpha [m] (overlap, > 0 in contact) and its rate [m/s]. */
  int (*normal_step)(const gc_pair *pair, gc_state *s, double alpha, double alpha_dot,
                     gc_normal *out);
  /* Tangential step: normal state after this step's normal step (n), increment of the
   * tangential displacement d_delta [m], its rate [m/s] and the rolling distance ds_roll [m]
   * of this step (sec. 5.2; 0 if none). */
  int (*tangential_step)(const gc_pair *pair, gc_state *s, const gc_normal *n, double d_delta,
                         double delta_dot, double ds_roll, gc_tangential *out);
};

/* Registry of all models (models/registry.c). */
const gc_model *gc_model_lookup(const char *name);
size_t gc_model_count(void);
const gc_model *gc_model_at(size_t i);

/* A contact law: a normal model, an optional tangential model and the pair constants.
 * Built once per material pair (models/law.c); shared read-only by all contacts of the pair. */
typedef struct {
  const gc_model *nfd;
  const gc_model *tfd; /* NULL: frictionless */
  gc_pair pair;
} gc_law;

/* Check the parameters against both models and compute the pair constants.  On failure msg
 * names the parameter and its allowed range. */
int gc_law_init(gc_law *law, const gc_model *nfd, const gc_model *tfd, const gc_params *p,
                char *msg, size_t msglen);
int gc_law_normal(const gc_law *law, gc_state *s, double alpha, double alpha_dot, gc_normal *out);
int gc_law_tangential(const gc_law *law, gc_state *s, const gc_normal *n, double d_delta,
                      double delta_dot, double ds_roll, gc_tangential *out);

/* Common helpers (models/common.c). */
void gc_state_init(gc_state *s);
/* Hertz constants of a pair: E*, R*, G*, C, k_hertz; validates the elastic parameters. */
int gc_pair_setup(gc_pair *pair, const gc_params *p, char *msg, size_t msglen);
/* Check the elastic parameters common to all physically-based models. */
int gc_check_elastic(const gc_params *p, char *msg, size_t msglen);
/* A_Y(nu) = p_m / sqrt(3 J2_max) from the Hertz field on the axis (eq. 3.11-3.20). */
int gc_yield_coefficient(double nu, double *A_Y);
/* Incipient yield force for the pair (eq. 6.19-6.21): the smaller over the bodies that yield. */
int gc_yield_force(const gc_pair *pair, double *P_Y, double *A_Y);

#endif
