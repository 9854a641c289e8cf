/* fit.h - calibration of a normal contact model (default: the elasto-plastic NFD model "ep")
 * from single-particle compression and drop tests and load paths (dissertation appendix E,
 * Algorithm D.1; ../shared/MODELS.md).
 *
 * Data: compression points (alpha_i, P_i), i = 1..m1 (alpha the single-side displacement, half
 * the platen approach) and drops (v_in,k, e_k), k = 1..m2.  Model: a sphere of radius R and mass
 * m on a rigid plane; P_model(alpha_i) is the law's normal step at alpha_i from a fresh state
 * (monotonic loading), e_model(v_in,k) = v_out / v_in of a simulated drop (gc_drop_run, leap-frog,
 * dt = 1e-6 s by default).  The law is the one `granucal drop / contact` build for the model
 * (gc_law_init_preset, normal and damping parts): the fit has no branch on a model's name.
 *
 * Objective (eq. E.1-E.7):
 *   F = w_a F_a / F_a(trial) + w_e F_e / F_e(trial),
 *   F_a = sum_i (P_model(alpha_i) - P_i)^2,   F_e = sum_k c_k (e_model(v_in,k) - e_k)^2,
 * where the force residuals of F_a also run over the points of load paths (FEA curves, cyclic
 * tests), whose P_model comes from replaying the path's displacements through the contact
 * driver, so that unloading and reloading follow the model's history rules;
 * with c_k = 1 (appendix E) or per-point weights from a repeat count or standard deviation
 * (normalised to mean 1).  "trial" is the initial guess, fixed once per problem, so every
 * solver and every start of a multi-start run minimise the same function.  The residual vector
 * r (m1 + m2 entries) has F = |r|^2:
 *   r_i = sqrt(w_a / F_a(trial)) (P_model,i - P_i),  r_k = sqrt(w_e c_k / F_e(trial)) (e_model,k - e_k).
 *
 * Parameters: the model's fittable parameters (gc_fit_model_params): those its normal and
 * damping sub-models read (gc_submodel.params) that the table (models/params.c) has as real
 * numbers, less the scene of the test (R1, the rigid plane R2 = E2 = 0, nu2, sY2, the mass
 * m_eff) and less the ones that do not change the law's normal force (asked from the law by
 * simulated drops: nu1 of 'wb' enters only its tangential stiffness, mu and kt_ratio only the
 * tangential part).  P_Y and sY1 are one parameter in two forms (eq. 6.19; P_Y > 0 overrides
 * sY): P_Y unless sY1 is asked for.  For 'ep' the vector is E, nu, P_Y, C_a, K_c (GC_FIT_E ..
 * GC_FIT_KC).  Any subset can be fixed.  The solvers other than Algorithm D.1 work on
 * log-parameters x_j = ln(p_j / trial_j) inside bounds [lo_j, hi_j] (all > 0).
 *
 * E and nu enter the Hertz-type normal models only through E* = E / (1 - nu^2) once P_Y is a
 * fitted quantity, so they cannot both be identified from these data: gc_fit_identify measures
 * this and the report says so. */
#ifndef GC_FIT_H
#define GC_FIT_H

#include <stddef.h>
#include <stdio.h>

#include "drop_sim.h"
#include "gc_io.h"
#include "gc_outputs.h"
#include "gc_model.h"

/* Largest parameter vector of any model. */
#define GC_FIT_MAXPAR 8
/* The vector of the 'ep' model and its order (the default model; appendix E). */
#define GC_FIT_NPAR 5
enum { GC_FIT_E = 0, GC_FIT_NU = 1, GC_FIT_PY = 2, GC_FIT_CA = 3, GC_FIT_KC = 4 };

/* The fittable parameters of a model (see above), in the table's order, into ids[]; *n of them.
 * want_sY: the yield parameter in its sY1 form instead of P_Y.  base gives the values at which
 * the law is asked which parameters change its force (R1, mass and initial values); mass [kg]
 * the drops' mass.  The parameters the sub-models read but that are not fittable go to
 * other[] (*nother; may be NULL), for messages.  GC_EINVAL (msg says why) if the model has no
 * normal part or the law cannot be built at base. */
int gc_fit_model_params(const gc_preset *model, const gc_params *base, double mass, int want_sY,
                        gc_param_id ids[GC_FIT_MAXPAR], int *n, gc_param_id *other, int *nother,
                        char *msg, size_t msglen);
/* 1 if the test gives parameter id (R1, and the rigid plane's R2, E2, nu2, sY2, and m_eff = m):
 * never fitted. */
int gc_fit_scene_param(gc_param_id id);
/* 1 if the model's normal or damping sub-model reads parameter id. */
int gc_fit_model_reads(const gc_preset *model, gc_param_id id);

/* ---------------------------------------------------------------- data */

typedef struct {
  size_t n_comp;
  double *alpha;     /* single-side displacement [m] */
  double *P;         /* force [N] */
  size_t *comp_line; /* line of each point in its file (0: not from a file) */
  size_t n_drop;
  double *v_in; /* impact speed [m/s] */
  double *H;    /* drop height [m], 0 if not given */
  double *e;    /* coefficient of restitution [-] */
  double *e_n;  /* repeat count, 0 if not given */
  double *e_sd; /* standard deviation of e, 0 if not given */
  size_t *drop_line;
  int has_n, has_sd; /* the drop file gave the column */
  /* 1-based columns of the file read last (0: none), for gc_data_check's messages */
  int comp_col_x, comp_col_P, drop_col_v, drop_col_H;
  int comp_approach; /* the displacement column is the platen approach (alpha = approach / 2) */
  char comp_path[512], drop_path[512]; /* the files read, ", "-separated */
  char notes[2048];                    /* what the readers converted or ignored, one line each */
  /* Load paths (FEA curves, cyclic compression tests): any sequence of loading, unloading and
   * reloading, replayed through the contact driver (gc_contact_run, displacement-driven) from
   * a fresh contact, one replay per file.  Points path_start[f] .. path_start[f + 1] - 1 are
   * file f's. */
  size_t n_path, n_path_files;
  double *path_t, *path_alpha, *path_P; /* [s], single-side displacement [m], force [N] */
  size_t *path_line;
  size_t *path_start;      /* n_path_files + 1 entries */
  char path_paths[8][512]; /* the first 8 file names, for the reports */
} gc_fit_data;

/* Zeroed arrays for n_comp compression points and n_drop drops (either may be 0). */
int gc_fit_data_alloc(gc_fit_data *d, size_t n_comp, size_t n_drop);
void gc_fit_data_free(gc_fit_data *d);
/* Compression CSV: columns alpha [m] (single-side displacement) or approach [m] (platen
 * approach, alpha = approach / 2), and P [N].  Drop CSV: v_in [m/s] and/or H [m]
 * (v_in = sqrt(2 g H) when only H is given), e [-], optionally n (repeat count) or sd (standard
 * deviation of e).  Errors name file:line:column.  The read replaces that part of d. */
int gc_fit_read_compression(gc_fit_data *d, const char *path, char *msg, size_t msglen);
int gc_fit_read_drops(gc_fit_data *d, const char *path, double g, char *msg, size_t msglen);
/* The one reader of drop files (fit, drop --sweep, `granucal data`, plot-drop -d): as
 * gc_fit_read_drops, with the column e optional when need_e is 0.  Units in the header are
 * converted to SI (m, mm, cm, um; m/s, mm/s, cm/s), columns it does not know are ignored, a
 * semicolon- or tab-separated file is read; each of these leaves a line in d->notes. */
int gc_fit_read_drops_ex(gc_fit_data *d, const char *path, double g, int need_e, char *msg,
                         size_t msglen);
/* Append the points of src to dst (several files of one kind are all used). */
int gc_fit_data_append(gc_fit_data *dst, const gc_fit_data *src, char *msg, size_t msglen);
/* Path CSV (columns alpha [m], P [N] and t [s]; the columns a curve ignores, compare.h, are
 * ignored): appended to the paths already read.  Errors name file:line:column. */
int gc_fit_read_path(gc_fit_data *d, const char *path, char *msg, size_t msglen);
/* The same for a curve read by gc_curve_read (and checked by gc_curve_check); its notes are
 * added to d's. */
struct gc_curve_s;
int gc_fit_add_path(gc_fit_data *d, const struct gc_curve_s *c, char *msg, size_t msglen);
/* Classify a CSV by its header: GC_FIT_KIND_COMPRESSION (alpha or approach, or P, without a
 * time column), _DROPS (v_in, H or e), _PATH (alpha, P and a time column t or time), 0 none
 * of them (msg says why), -1 error. */
enum { GC_FIT_KIND_COMPRESSION = 1, GC_FIT_KIND_DROPS = 2, GC_FIT_KIND_PATH = 3 };
int gc_fit_csv_kind(const char *path, char *msg, size_t msglen);
/* "compression data (alpha or approach, P)", ...: a kind for messages. */
const char *gc_fit_kind_name(int kind);

/* ---------------------------------------------------------------- problem */

enum { GC_FIT_PW_NONE = 0, GC_FIT_PW_COUNT = 1, GC_FIT_PW_SD = 2 };

typedef struct {
  const gc_preset *model; /* the model fitted (a preset with a normal part) */
  int npar;               /* its parameter vector: pid[0 .. npar - 1] */
  gc_param_id pid[GC_FIT_MAXPAR];
  gc_params base;              /* R1 and everything the fit does not touch; R2 = E2 = 0 (plane) */
  double mass;                 /* [kg] */
  gc_drop_cfg drop;            /* mass is filled in from mass; dt 1e-6 s, leap-frog, g = 0 */
  double w_a, w_e;             /* weights of eq. E.5 (0.1, 0.9 in the seed) */
  int point_weights;           /* GC_FIT_PW_* for the drops */
  double trial[GC_FIT_MAXPAR]; /* trial values / initial guess (E.6-E.7 normalisation) */
  int is_free[GC_FIT_MAXPAR];
  double lo[GC_FIT_MAXPAR], hi[GC_FIT_MAXPAR]; /* bounds, 0 < lo <= trial <= hi */
  double norm_Fa, norm_Fe; /* F_a(trial), F_e(trial) given by the caller (a profile or a refit
                            * with some parameters held must minimise the same F); 0: computed
                            * at the trial values */
} gc_fit_setup;

/* The model 'ep' with gc_fit_setup_model's defaults (appendix E). */
int gc_fit_setup_default(gc_fit_setup *s, const gc_params *base, double mass, char *msg,
                         size_t msglen);
/* Defaults for model: its fittable parameters (gc_fit_model_params) all free with trial values
 * from base (P_Y from sY when only sY is given; sY1 from P_Y in the sY1 form), w_a = 0.1,
 * w_e = 0.9, m_eff = mass (a sphere on a rigid plane) and the search box
 *   [trial / 10, trial * 10] for a parameter whose table range is unbounded above or whose
 *   upper end hi is above trial * 10 (K_c <= 10 1/N),
 *   [max(trial / 10, hi / 10), hi] for one bounded above by hi <= trial * 10 (nu1: [0.05,
 *   0.49], e_n: [max(trial / 10, 0.1), 1]), an open end moved inside by 2 % of it. */
int gc_fit_setup_model(gc_fit_setup *s, const gc_preset *model, int want_sY, const gc_params *base,
                       double mass, char *msg, size_t msglen);
/* Index of parameter id in the setup's vector, -1 if the model has no such fit parameter. */
int gc_fit_find(const gc_fit_setup *s, gc_param_id id);
/* Index of a parameter by name or card key in the setup's vector, -1 if not there. */
int gc_fit_lookup(const gc_fit_setup *s, const char *name);
/* Name (card key: "E", "nu", "P_Y", ...) and unit of entry j of the setup's vector. */
const char *gc_fit_name(const gc_fit_setup *s, int j);
const char *gc_fit_unit(const gc_fit_setup *s, int j);
/* The contact parameters at the fit vector p (base with p's entries put in). */
void gc_fit_params_at(const gc_fit_setup *s, const double *p, gc_params *q);

typedef struct {
  double F;      /* normalised objective (eq. E.5) */
  double Fa, Fe; /* raw sums of squares (eq. E.1, E.4) */
} gc_fit_value;

typedef struct {
  gc_fit_setup set;
  const gc_fit_data *data;
  const gc_preset *model;
  double Fa_ref, Fe_ref; /* F_a(trial), F_e(trial) (eq. E.6-E.7) */
  double sa, se;         /* residual scales sqrt(w_a / Fa_ref), sqrt(w_e / Fe_ref); 0 if unused */
  double *c, *sqc;       /* drop point weights c_k (mean 1) and their square roots */
  void *path_recs;       /* gc_contact_rec scratch for the path replays (n_path) */
  size_t n_res;          /* m1 + m2 + path points (residuals in this order) */
  int nfree, idx[GC_FIT_MAXPAR]; /* free parameters in order */
  long nevals;                   /* objective evaluations since init */
  long nfail;                    /* evaluations where the model failed (penalised) */
} gc_fit_problem;

/* Validate the setup against the data, compute the normalisation at the trial values. */
int gc_fit_problem_init(gc_fit_problem *pb, const gc_fit_setup *set, const gc_fit_data *d,
                        char *msg, size_t msglen);
void gc_fit_problem_free(gc_fit_problem *pb);

/* Build the EP contact law of the full parameter vector p without allocating (the A_Y(nu) of the
 * law is not computed: it is only reported).  GC_EINVAL if p is outside the model's range. */
int gc_fit_law(const gc_fit_problem *pb, const double *p, gc_law *law);
/* Model predictions at p: P_model (n_comp) and drop results (n_drop); either may be NULL. */
int gc_fit_predict(const gc_fit_problem *pb, const double *p, double *P_model,
                   gc_drop_result *drops);
/* The model's force along the load paths at p (n_path entries). */
int gc_fit_predict_path(gc_fit_problem *pb, const double *p, double *P_path);
/* Objective and residuals (r may be NULL) at p.  Allocation-free; counts one evaluation.  A
 * model failure gives a large finite penalty (counted in nfail), never NaN. */
gc_fit_value gc_fit_eval(gc_fit_problem *pb, const double *p, double *r);

/* Free vector <-> full vector: x_j = ln(p_j / trial_j) for the free parameters. */
void gc_fit_x_to_p(const gc_fit_problem *pb, const double *x, double *p);
void gc_fit_p_to_x(const gc_fit_problem *pb, const double *p, double *x);

/* Yield stress from P_Y by eq. E.16 / 6.19: sY = (6 E*^2 P_Y / (pi^3 R^2))^(1/3) / A_Y(nu). */
int gc_fit_yield_stress(const gc_fit_setup *set, const double *p, double *sY, double *A_Y);

/* Replace the data by synthetic data from parameters p (same alpha_i, v_in,k), with Gaussian
 * noise of standard deviation noise_P_rel * P (relative) and noise_e (absolute), from GSL's
 * mt19937 seeded with seed.  Uses pb's setup (geometry, drop configuration). */
int gc_fit_synthesize(const gc_fit_setup *set, gc_fit_data *d, const double *p, double noise_P_rel,
                      double noise_e, unsigned long seed, char *msg, size_t msglen);

/* ---------------------------------------------------------------- solvers */

/* Indices of the solver table's first rows, for the code and tests that name them. */
enum {
  GC_FIT_LM = 0,     /* GSL gsl_multifit_nlinear, Levenberg-Marquardt trust region */
  GC_FIT_SD,         /* steepest descent, Algorithm D.1 */
  GC_FIT_BOBYQA,     /* NLopt LN_BOBYQA */
  GC_FIT_NELDERMEAD, /* NLopt LN_NELDERMEAD */
  GC_FIT_SBPLX,      /* NLopt LN_SBPLX (Subplex) */
  GC_FIT_DIRECT,     /* NLopt GN_DIRECT_L, then local polishing */
  GC_FIT_CRS2        /* NLopt GN_CRS2_LM, then local polishing */
};
const char *gc_fit_alg_name(int alg);
const char *gc_fit_alg_description(int alg);
int gc_fit_alg_lookup(const char *name); /* the name or an alias; -1 if unknown */
int gc_fit_alg_is_global(int alg);

typedef struct {
  int algorithm;   /* GC_FIT_* */
  int polish;      /* local algorithm after a global one (GC_FIT_BOBYQA default; -1 none) */
  long max_evals;  /* budget per start (global: for the global phase); 0 = default */
  double xtol;     /* tolerance on the log-parameters (NLopt xtol_abs, GSL xtol) */
  double ftol;     /* relative tolerance on F (NLopt ftol_rel, GSL ftol) */
  double fd_step;  /* finite-difference step in log-parameters (LM Jacobian) */
  double sd_delta; /* Algorithm D.1: initial relative step delta */
  double sd_eps;   /* Algorithm D.1: tolerance eps on |F_new - F_old| */
  long sd_max_iter;
  int starts;         /* multi-start: number of starts (>= 1); start 1 is the trial point */
  unsigned long seed; /* multi-start RNG seed (GSL mt19937) */
  FILE *log;          /* iteration history, NULL for none */
  int have_start;     /* start 1 from start[] instead of the trial values (a restart from a
                        * better point; the normalisation stays the trial values') */
  double start[GC_FIT_MAXPAR];
} gc_fit_options;

/* A solver of `granucal fit` (one row of the table in fit_solve.c, as GSL's
 * gsl_multifit_nlinear_type): its name for -A and --polish, what it is, the other names it
 * answers to, its kind, and the functions that check the options and run one start. */
enum {
  GC_FIT_SOLVER_GLOBAL = 1,    /* a global search: 3/2 the budget, polished by --polish */
  GC_FIT_SOLVER_POLISHER = 2,  /* an NLopt local solver: --polish may name it */
  GC_FIT_SOLVER_OWN_POINT = 4, /* its result is its own point: no polish from the best point */
  GC_FIT_SOLVER_HISTORY = 8    /* its iteration history is printed unless -q */
};
typedef struct gc_fit_run_ctx gc_fit_run_ctx;
typedef struct {
  const char *name;
  const char *description;
  const char *aliases; /* other names, space-separated, or NULL */
  unsigned flags;      /* GC_FIT_SOLVER_* */
  int variant;         /* the runner's algorithm code (NLopt's nlopt_algorithm) */
  /* options and problem fit for this solver: GC_SUCCESS, else GC_EINVAL and a message */
  int (*check)(const gc_fit_problem *pb, const gc_fit_options *o, char *msg, size_t n);
  /* one start from p0 with budget evaluations */
  void (*run)(gc_fit_run_ctx *c, const double *p0, long budget);
} gc_fit_solver_type;
int gc_fit_solver_count(void);
const gc_fit_solver_type *gc_fit_solver_at(int alg); /* NULL out of range */
/* The names of the solvers whose flags have every bit of need and none of refuse, as
 * "a, b, c" into buf (truncated to n); returns the length of the whole list. */
size_t gc_fit_solver_names(char *buf, size_t n, unsigned need, unsigned refuse);

void gc_fit_options_default(gc_fit_options *o);

typedef struct {
  int start;   /* 1-based start of a multi-start run */
  long iter;   /* iteration (SD, LM) or evaluation (NLopt) number */
  long nevals; /* evaluations so far */
  double F;    /* best objective so far */
} gc_fit_trace;

typedef struct {
  double p[GC_FIT_MAXPAR]; /* best parameters */
  gc_fit_value val;        /* objective at p */
  long nevals;             /* objective evaluations used (all starts, including gradients) */
  long niter;              /* iterations (SD, LM) of the best start */
  long nfail;              /* penalised evaluations */
  double seconds;          /* wall time */
  int converged;           /* the stopping test was met (not the budget) */
  int best_start;          /* 1-based */
  char stop[160];          /* why the best start stopped */
  gc_fit_trace *trace;     /* objective history of the best start */
  size_t ntrace, trace_cap;
  gc_fit_trace *all; /* objective histories of every start, start after start (issue 13:
                           * the convergence plot draws them all) */
  size_t nall, all_cap;
  int nstarts; /* starts run */
} gc_fit_result;

/* Run the chosen solver (with multi-start) from the trial values.  The objective history of the
 * best start goes to res->trace, those of all starts to res->all; with o->log, the iteration
 * history is printed. */
int gc_fit_run(gc_fit_problem *pb, const gc_fit_options *o, gc_fit_result *res, char *msg,
               size_t msglen);
void gc_fit_result_free(gc_fit_result *res);

/* ---------------------------------------------------------------- identifiability */

typedef struct {
  size_t n_res;
  int nfree, dof;                 /* dof = n_res - nfree */
  double s2;                      /* residual variance F / dof */
  double *J;                      /* n_res x 5 Jacobian of r wrt ln p (all five), row-major */
  double sv_all[GC_FIT_MAXPAR];   /* singular values of J (all five, descending) */
  double null_all[GC_FIT_MAXPAR]; /* right singular vector of the smallest one */
  double nu_at_fixed_Estar;       /* |dr/dln nu at fixed E*| / |dr/dln E*| (0: nu has no effect) */
  double sv_free[GC_FIT_MAXPAR];  /* singular values of the free columns */
  double cond_free;               /* sv_max / sv_min of the free columns */
  int rank_deficient;             /* free columns numerically dependent */
  double corr[GC_FIT_MAXPAR * GC_FIT_MAXPAR]; /* correlations of the free ln p: corr[a * 5 + b] for
                                * free indices a, b (the order of pb->idx) */
  double se_log[GC_FIT_MAXPAR]; /* standard errors of ln p (INFINITY: not identifiable) */
  double ci_lo[GC_FIT_MAXPAR], ci_hi[GC_FIT_MAXPAR]; /* 95 % intervals of p */
  double Estar, Estar_lo, Estar_hi;                  /* E* and its 95 % interval */
  double tq;                                         /* Student t quantile used */
  int Enu_free;                                      /* both E and nu free */
  double Enu_corr;                                   /* their correlation when both free */
} gc_fit_ident;

/* Jacobian by central differences with step h in ln p, its SVD, correlations and approximate
 * confidence intervals (linearised, s^2 from the residual). */
int gc_fit_identify(gc_fit_problem *pb, const double *p, double h, gc_fit_ident *id, char *msg,
                    size_t msglen);
void gc_fit_ident_free(gc_fit_ident *id);

/* ---------------------------------------------------------------- what the data determine */

/* Profile of the objective along one parameter: at each grid value p_j the other free parameters
 * are re-optimised (LM, warm-started from the neighbour) with the normalisation of the full fit,
 * so F_prof(p_j) = min over the others of F.  The 95 % profile interval is where
 * F_prof - F_min <= s^2 F_{0.95}(1, n - p) with s^2 = F_min / (n - p) (the F test of a nested
 * least-squares model; Bates & Watts 1988, sec. 6.1).  It is open on a side where it reaches the
 * search bound: the data do not bound the parameter there. */
#define GC_FIT_PROF_N 15
enum { GC_FIT_DETERMINED = 0, GC_FIT_UPPER_ONLY, GC_FIT_LOWER_ONLY, GC_FIT_UNDETERMINED };

typedef struct {
  int j; /* parameter, -1: not profiled */
  int npts;
  double x[GC_FIT_PROF_N + 1]; /* grid values (ascending) */
  double F[GC_FIT_PROF_N + 1]; /* profile objective (INFINITY where the refit failed) */
  double q[GC_FIT_PROF_N + 1][GC_FIT_MAXPAR]; /* the re-optimised parameters */
  double F_min, dF;                           /* minimum and the threshold s^2 F_{0.95}(1, dof) */
  double lo, hi;                              /* 95 % profile interval */
  int open_lo, open_hi; /* the interval reaches the search bound on that side */
  int cls;              /* GC_FIT_DETERMINED ... */
} gc_fit_profile;

int gc_fit_profile_run(const gc_fit_problem *pb, const double *p_opt, int j, gc_fit_profile *pr,
                       char *msg, size_t msglen);

/* Candidate extra measurements ranked by what they add to the Jacobian (see fit_profile.c). */
#define GC_FIT_ADVICE_STEPS 3
typedef struct {
  int nA, A[GC_FIT_MAXPAR];      /* the analysed parameters (the free ones of the full fit) */
  double sv_min0;                /* smallest singular value of the data's Jacobian on A */
  double factor0[GC_FIT_MAXPAR]; /* 95 % interval factor exp(2 t se) of each analysed
                                     * parameter (INFINITY: not determined) */
  int nsteps;
  char what[GC_FIT_ADVICE_STEPS][128]; /* greedy choice, step by step */
  double sv_min[GC_FIT_ADVICE_STEPS];  /* after adding steps 0..k */
  double factor[GC_FIT_ADVICE_STEPS][GC_FIT_MAXPAR];
  int ncand;                    /* candidates evaluated */
  int nirr, irr[GC_FIT_MAXPAR]; /* parameters without effect on the data or any candidate
                                     * (left out of A) */
  double P_peak;                /* largest contact force of the data and candidates [N] */
} gc_fit_advice;

typedef struct {
  int mode;                           /* 1: parameters the data do not determine were held */
  int analysed[GC_FIT_MAXPAR];        /* free in the full fit */
  gc_fit_profile prof[GC_FIT_MAXPAR]; /* by parameter; prof[j].j < 0 when not profiled */
  int held[GC_FIT_MAXPAR];
  double hold[GC_FIT_MAXPAR];           /* their values in the final fit */
  int hold_from_card[GC_FIT_MAXPAR];    /* 1: the card's value (inside the profile interval) */
  double p_full[GC_FIT_MAXPAR], F_full; /* the fit with everything free */
  double Estar_range[2];                /* E* over the profile of the first held parameter */
  int have_advice;
  gc_fit_advice adv;
  int unconverged;           /* the solve did not reach a minimum: nothing is classified */
  char why[200];             /* its stop reason */
  int have_quality, poor;    /* gc_fit_verdict_quality ran; the fit is poor */
  size_t n_force;            /* force residuals tested (compression and path points) */
  size_t runs, n_pos, n_neg; /* runs test on their signs in data order */
  double runs_p;             /* its one-sided p (too few runs) */
  double rel_rms;            /* RMS(P_model - P) / RMS(P) */
} gc_fit_verdict;

/* Is the fit poor?  The force residuals P_model - P at p (compression points, then every load
 * path's, in file order) are systematic when a Wald-Wolfowitz runs test on their signs finds too
 * few runs (one-sided p < GC_FIT_RUNS_P, at least 10 residuals), and large when their RMS is
 * above GC_FIT_POOR_RMS of the RMS force.  Poor: large, or systematic and above
 * GC_FIT_SYSTEMATIC_RMS (a model that follows smooth, noise-free data such as an FEA curve to
 * a few per cent always leaves systematic residuals; that is not a poor fit). */
#define GC_FIT_RUNS_P 0.001
#define GC_FIT_POOR_RMS 1.0
#define GC_FIT_SYSTEMATIC_RMS 0.1
int gc_fit_verdict_quality(gc_fit_problem *pb, const double *p, gc_fit_verdict *v);

/* The lowest point the verdict's profiles evaluated, into q and *F (INFINITY if none). */
void gc_fit_verdict_best(const gc_fit_problem *pb, const gc_fit_verdict *v, double *q, double *F);

/* Profile every free parameter at the full fit p_full (E is skipped when nu is free too: only
 * E* is determined) and classify it. */
int gc_fit_verdict_profile(const gc_fit_problem *pb, const double *p_full, double F_full,
                           gc_fit_verdict *v, char *msg, size_t msglen);
/* Rank candidate extra measurements (drops at other v_in, points of an unloading curve from the
 * largest compression, compression points outside the measured range) by how much each raises
 * the smallest singular value of the Jacobian on v->analysed, greedily up to
 * GC_FIT_ADVICE_STEPS, at the final parameters p with the final Jacobian id. */
int gc_fit_advise(const gc_fit_problem *pb, const double *p, const gc_fit_ident *id,
                  gc_fit_verdict *v, char *msg, size_t msglen);
/* The plain-language verdict: what is determined, what is only bounded, what was held, what to
 * measure next. */
void gc_fit_print_verdict(FILE *f, const gc_fit_problem *pb, const double *p,
                          const gc_fit_ident *id, const gc_fit_verdict *v);

/* ---------------------------------------------------------------- reports */

/* The summary: settings, result, residual per data point, identifiability. */
void gc_fit_print_summary(FILE *f, gc_fit_problem *pb, const gc_fit_options *o,
                          const gc_fit_result *res, const gc_fit_ident *id,
                          const gc_fit_verdict *v);
/* The parameter file (the key = value format of gc_card_read, granucal-params(5)). */
int gc_fit_write_params(FILE *f, const gc_fit_problem *pb, const gc_fit_result *res,
                        const gc_card_extra *x, const char *comment);
/* The --report directory: summary.txt, fit.params, CSVs, plot-fit.gp and (with gnuplot)
 * compression.png, restitution.png, convergence.png.  Written in a temporary directory and moved
 * into place only when complete.  *warn is set when the PNGs could not be made. */
int gc_fit_write_report(const char *dir, gc_fit_problem *pb, const gc_fit_options *o,
                        const gc_fit_result *res, const gc_fit_ident *id, const gc_fit_verdict *v,
                        const gc_card_extra *x, const char *comment, int *warn, char *msg,
                        size_t msglen);
/* Add to plan the report directory dir and every file gc_fit_write_report writes there. */
void gc_fit_report_plan(const char *dir, gc_outplan *plan);

#endif
