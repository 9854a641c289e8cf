/* test_compose.c - laws composed by keys (normal, damping, tangential, rolling, twisting;
 * gc_law_compose) against the presets they spell out, and the elasto-plastic law with a
 * damping: its restitution below yield against the damping's closed form, its energy balance,
 * and the fit of the damping parameter from low drops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chute_io.h"
#include "drop_sim.h"
#include "fit.h"
#include "gc_io.h"
#include "gc_model.h"
#include "gc_test.h"

/* A soybean (data/chute/soybean.params: R 2.75 mm, m 0.149 g, E 209.8 MPa, nu 0.4314, sY 4.857
 * MPa, C_a, K_c) against a like soybean, with every parameter any sub-model reads set, so that
 * every composition can be built. */
static void soybean_pair(gc_params *p)
{
  gc_params_default(p);
  p->R1 = p->R2 = 2.75e-3;
  p->E1 = p->E2 = 2.098e8;
  p->nu1 = p->nu2 = 0.4314;
  p->sY1 = p->sY2 = 4.857e6;
  p->C_a = 1.504e-5;
  p->K_c = 2.954e-6;
  p->mu = 0.267;
  p->m_eff = 0.5 * 1.49e-4;
  p->e_n = 0.7;
  p->k_n = 5e4;
  p->c_n = 0.05;
  p->k_t = 4e4;
  p->c_t = 0.01;
  p->alpha_c = 0.2;
}

/* The normal and tangential force of law along a load - unload - reload path with tangential
 * travel, into F[2 * n] (NaN after a failed step). */
enum { PATH_N = 60 };
static void path_forces(const gc_law *law, double F[2 * PATH_N])
{
  double h[GC_HIST_MAX];
  gc_law_history_init(law, h);
  const double a_max = 6e-5, dt = 1e-6; /* beyond the soybean pair's yield (alpha_Y ~ 1e-5 m) */
  double a_prev = 0.0;
  for (int k = 0; k < PATH_N; k++) {
    double u = (double)k / (PATH_N - 1) * 3.0;
    double a = u < 1   ? a_max * u
               : u < 2 ? a_max * (2 - u) * 0.9 + 0.1 * a_max
                       : a_max * 0.7 * (u - 1.5);
    double a_dot = (a - a_prev) / dt;
    gc_normal no;
    gc_tangential to;
    F[2 * k] = F[2 * k + 1] = NAN;
    if (gc_law_normal(law, h, a, a_dot, &no))
      return;
    F[2 * k] = no.P;
    if (gc_law_frictional(law)) {
      if (gc_law_tangential(law, h, &no, 2e-7 * sin(0.3 * k), 0.2 * cos(0.3 * k), 0.0, &to))
        return;
      F[2 * k + 1] = to.Q;
    } else {
      F[2 * k + 1] = 0.0;
    }
    a_prev = a;
  }
}

static int compose(const char *model, const char *tfd, const char *normal, const char *damping,
                   const char *tangential, gc_law *law, const gc_params *p)
{
  const gc_preset *nfd, *tp;
  const gc_submodel *rs = NULL, *ts = NULL;
  const char *bad;
  gc_kind kind;
  const char *names[GC_NKINDS] = { normal, damping, tangential, NULL, NULL };
  char msg[512] = "";
  int st = gc_preset_resolve(model, tfd, NULL, NULL, &nfd, &tp, &bad, &kind);
  if (!st)
    st = gc_law_compose(names, &nfd, &tp, &rs, &ts, &kind);
  if (!st)
    st = gc_law_init_full(law, nfd, tp, rs, ts, p, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s/%s + %s, %s, %s: %s", model ? model : "-", tfd ? tfd : "-",
            normal ? normal : "-", damping ? damping : "-", tangential ? tangential : "-", msg);
  return st;
}

static int preset_law(const char *nfd, const char *tfd, gc_law *law, const gc_params *p)
{
  char msg[512] = "";
  int st = gc_law_init_preset(law, gc_preset_lookup(nfd), tfd ? gc_preset_lookup(tfd) : NULL, p,
                              msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s: %s", nfd, msg);
  return st;
}

/* hertz + tsuji + tsuji by keys, from the default model ep, is the tsuji preset: the same
 * sub-models, the same fast Hertz-Mindlin path, the same forces to the bit. */
static void test_keys_equal_tsuji(void)
{
  gc_params p;
  soybean_pair(&p);
  gc_law a, b;
  CU_ASSERT_EQUAL_FATAL(compose(NULL, NULL, "hertz", "tsuji", "tsuji", &a, &p), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(preset_law("tsuji", "tsuji", &b, &p), GC_SUCCESS);
  CU_ASSERT_STRING_EQUAL(a.name_normal, "hertz+tsuji");
  for (int k = 0; k < GC_NKINDS; k++)
    CU_ASSERT_PTR_EQUAL(a.sub[k], b.sub[k]);
  CU_ASSERT_EQUAL(a.hertz_mindlin, 1);
  CU_ASSERT_EQUAL(b.hertz_mindlin, 1);
  double Fa[2 * PATH_N], Fb[2 * PATH_N];
  path_forces(&a, Fa);
  path_forces(&b, Fb);
  CU_ASSERT(isfinite(Fa[2 * PATH_N - 2]) && Fa[20] > 0); /* the path ran and pressed */
  CU_ASSERT_EQUAL(memcmp(Fa, Fb, sizeof Fa), 0);
}

/* Every preset with a normal part equals its explicit composition (normal, damping and
 * tangential named one by one, from another model): the same sub-models and forces. */
static void test_presets_equal_compositions(void)
{
  gc_params p;
  soybean_pair(&p);
  int n = 0;
  for (size_t i = 0; i < gc_preset_count(); i++) {
    const gc_preset *ps = gc_preset_at(i);
    if (!ps->normal)
      continue;
    const char *base = strcmp(ps->normal, "ep") ? "ep" : "hertz";
    gc_law a, b;
    int sa = compose(base, NULL, ps->normal, ps->damping ? ps->damping : "none",
                     ps->tangential ? ps->tangential : "none", &a, &p);
    int sb = preset_law(ps->name, ps->tangential ? ps->name : NULL, &b, &p);
    CU_ASSERT_EQUAL(sa, sb);
    if (sa || sb)
      continue;
    for (int k = 0; k < GC_NKINDS; k++)
      CU_ASSERT_PTR_EQUAL(a.sub[k], b.sub[k]);
    double Fa[2 * PATH_N], Fb[2 * PATH_N];
    path_forces(&a, Fa);
    path_forces(&b, Fb);
    CU_ASSERT_EQUAL(memcmp(Fa, Fb, sizeof Fa), 0);
    n++;
  }
  CU_ASSERT_EQUAL(n, 8); /* hertz lsd tsuji wb thornton ep lsd_e hc */
}

/* ep + none (from another model, so another preset row) is the ep law to the bit, through
 * yield, unloading and reloading. */
static void test_ep_none_is_ep(void)
{
  gc_params p;
  soybean_pair(&p);
  gc_law a, b;
  CU_ASSERT_EQUAL_FATAL(compose("tsuji", "ep", "ep", "none", NULL, &a, &p), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(preset_law("ep", "ep", &b, &p), GC_SUCCESS);
  CU_ASSERT_STRING_EQUAL(a.name_normal, "ep+none");
  double Fa[2 * PATH_N], Fb[2 * PATH_N];
  path_forces(&a, Fa);
  path_forces(&b, Fb);
  CU_ASSERT_EQUAL(memcmp(Fa, Fb, sizeof Fa), 0);
  double h[GC_HIST_MAX];
  gc_law_history_init(&a, h);
  gc_normal no;
  CU_ASSERT_EQUAL(gc_law_normal(&a, h, 6e-5, 1.0, &no), GC_SUCCESS);
  CU_ASSERT(no.plastic); /* the path went beyond yield */
}

/* A head-on impact of two soybeans at v [m/s], 20000 steps per Hertz contact duration. */
static gc_drop_result impact(const gc_law *law, double v)
{
  gc_drop_cfg cfg;
  gc_drop_cfg_default(&cfg);
  cfg.mass = law->pair.p.m_eff;
  cfg.g = 0.0;
  cfg.dt = GC_TEST_HERTZ_TIME(law->pair, cfg.mass, v) / 20000.0;
  gc_drop_result r;
  CU_ASSERT_EQUAL(gc_drop_run(law, &cfg, v, &r, NULL, NULL), GC_SUCCESS);
  return r;
}

/* ep + tsuji below yield: the ep law is Hertz there (eq. 6.24), so the restitution is the one
 * Tsuji's damping is set to deliver on a Hertz spring, e_n (exact inversion of e(eta),
 * models/restitution.c; Antypov & Elliott 2011 for the velocity independence), within 1e-3.
 * ep alone gives 1 there. */
static void test_ep_tsuji_restitution(void)
{
  gc_params p;
  soybean_pair(&p);
  const double en[] = { 0.5, 0.7, 0.9 }, v[] = { 0.01, 0.05 };
  gc_law ep;
  CU_ASSERT_EQUAL_FATAL(preset_law("ep", NULL, &ep, &p), GC_SUCCESS);
  for (int j = 0; j < 2; j++) {
    gc_drop_result r = impact(&ep, v[j]);
    CU_ASSERT(r.P_max < ep.pair.P_Y);           /* below yield */
    CU_ASSERT_DOUBLE_EQUAL(r.e_vel, 1.0, 1e-3); /* elastic: no dissipation left */
  }
  for (int i = 0; i < 3; i++) {
    p.e_n = en[i];
    gc_law law;
    CU_ASSERT_EQUAL_FATAL(compose(NULL, NULL, NULL, "tsuji", NULL, &law, &p), GC_SUCCESS);
    CU_ASSERT_STRING_EQUAL(law.name_normal, "ep+tsuji");
    for (int j = 0; j < 2; j++) {
      gc_drop_result r = impact(&law, v[j]);
      CU_ASSERT(r.P_max < law.pair.P_Y);
      CU_ASSERT_DOUBLE_EQUAL(r.e_vel, en[i], 1e-3);
    }
  }
}

/* The damping never creates energy: along impacts of ep + each damping below and far above
 * yield, the damping force F_d = P - P_ep (P_ep the elasto-plastic force the normal slice
 * keeps) has the sign of the overlap rate at every step, so its work on the bodies is <= 0,
 * the rebound is slower than ep's alone, and ep's own state is that of the undamped curve. */
static void test_ep_damping_energy(void)
{
  gc_params p;
  soybean_pair(&p);
  static const char *const dampings[] = { "tsuji", "hunt_crossley", "linear" };
  const double v[] = { 0.05, 0.5, 2.0 };
  gc_law ep;
  CU_ASSERT_EQUAL_FATAL(preset_law("ep", NULL, &ep, &p), GC_SUCCESS);
  for (int d = 0; d < 3; d++) {
    gc_law law;
    CU_ASSERT_EQUAL_FATAL(compose(NULL, NULL, "ep", dampings[d], NULL, &law, &p), GC_SUCCESS);
    for (int j = 0; j < 3; j++) {
      /* a hand-made impact (leap-frog, as drop_sim), recording F_d and its work */
      double m = p.m_eff, x = 0.0, vel = v[j];
      double dt = GC_TEST_HERTZ_TIME(law.pair, m, v[j]) / 20000.0;
      double h[GC_HIST_MAX];
      gc_law_history_init(&law, h);
      long wrong_sign = 0;
      double work = 0.0, F_prev = 0.0, a_prev = 0.0;
      for (long k = 0; k < 400000; k++) {
        x += vel * dt; /* overlap alpha = x */
        gc_normal no;
        double rate = (x - a_prev) / dt;
        if (gc_law_normal(&law, h, x, rate, &no)) {
          CU_FAIL("normal step failed");
          break;
        }
        double P_ep = gc_law_hist_normal(&law, h)->P;
        double F_d = no.P - P_ep;
        if (F_d * rate < -1e-12 * fabs(no.P))
          wrong_sign++;
        work += 0.5 * (F_d + F_prev) * (x - a_prev); /* work absorbed by the dashpot */
        F_prev = F_d;
        a_prev = x;
        vel -= no.P / m * dt;
        if (x <= 0 && vel < 0)
          break;
      }
      CU_ASSERT_EQUAL(wrong_sign, 0);
      CU_ASSERT(work >= 0.0);
      gc_drop_result rd = impact(&law, v[j]), re = impact(&ep, v[j]);
      CU_ASSERT(rd.e_vel < re.e_vel);
      CU_ASSERT(rd.e_vel > 0 && rd.e_vel <= 1.0);
      if (j == 0)
        CU_ASSERT(work > 0.0); /* below yield the dashpot is the one dissipation */
    }
  }
}

/* The damping leaves the elasto-plastic state alone: along the same prescribed path (through
 * yield, unloading, reloading) ep + tsuji keeps in its normal slice the turning point, residual
 * displacement and force of ep alone, to the bit, and its force differs from ep's by the
 * dashpot only (P - P_ep has the sign of the rate). */
static void test_ep_state_undamped(void)
{
  gc_params p;
  soybean_pair(&p);
  gc_law ep, ept;
  CU_ASSERT_EQUAL_FATAL(preset_law("ep", NULL, &ep, &p), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(compose(NULL, NULL, "ep", "tsuji", NULL, &ept, &p), GC_SUCCESS);
  double ha[GC_HIST_MAX], hb[GC_HIST_MAX];
  gc_law_history_init(&ep, ha);
  gc_law_history_init(&ept, hb);
  int differs = 0, damped = 0;
  for (int k = 0; k < 90; k++) {
    double u = k / 30.0; /* 0 .. 3: load to 6e-5 m, unload to 1e-5 m, reload */
    double a = u < 1 ? 6e-5 * u : u < 2 ? 6e-5 - 5e-5 * (u - 1) : 1e-5 + 6e-5 * (u - 2);
    double rate = u < 1 ? 0.5 : u < 2 ? -0.4 : 0.5;
    gc_normal na, nb;
    CU_ASSERT_EQUAL_FATAL(gc_law_normal(&ep, ha, a, rate, &na), GC_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(gc_law_normal(&ept, hb, a, rate, &nb), GC_SUCCESS);
    const gc_hist_normal *sa = gc_law_hist_normal(&ep, ha), *sb = gc_law_hist_normal(&ept, hb);
    differs += sa->P != sb->P || sa->P_max != sb->P_max || sa->alpha_max != sb->alpha_max ||
               sa->alpha_res != sb->alpha_res;
    damped += nb.P != na.P;
    CU_ASSERT((nb.P - na.P) * rate >= 0 || nb.P == 0.0);
  }
  CU_ASSERT_EQUAL(differs, 0);
  CU_ASSERT(damped > 60); /* the dashpot acted wherever the contact pressed */
}

/* Bad compositions are refused naming the kind, with the allowed names and a suggestion. */
static void test_bad_names(void)
{
  const gc_preset *nfd = gc_preset_lookup("ep"), *tfd = gc_preset_lookup("ep");
  const gc_submodel *rs = NULL, *ts = NULL;
  gc_kind kind = GC_KIND_NORMAL;
  const char *names[GC_NKINDS] = { NULL, "tsujj", NULL, NULL, NULL };
  CU_ASSERT_EQUAL(gc_law_compose(names, &nfd, &tfd, &rs, &ts, &kind), GC_EINVAL);
  CU_ASSERT_EQUAL(kind, GC_KIND_DAMPING);
  CU_ASSERT_PTR_EQUAL(nfd, gc_preset_lookup("ep")); /* unchanged on failure */
  char msg[512];
  CU_ASSERT_EQUAL(gc_law_key_check(GC_KIND_DAMPING, "damping", "tsujj", msg, sizeof msg),
                  GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "damping = 'tsujj' is not a damping sub-model"));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "none, linear, tsuji, linear_e, hunt_crossley"));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "did you mean 'tsuji'"));
  const char *names2[GC_NKINDS] = { "md", NULL, NULL, NULL, NULL }; /* md is tangential */
  CU_ASSERT_EQUAL(gc_law_compose(names2, &nfd, &tfd, &rs, &ts, &kind), GC_EINVAL);
  CU_ASSERT_EQUAL(kind, GC_KIND_NORMAL);
  /* a damping whose parameter the card lacks: the table's range message */
  gc_params p;
  soybean_pair(&p);
  p.e_n = 0.0;
  gc_law law;
  CU_ASSERT_EQUAL(compose(NULL, NULL, NULL, "tsuji", NULL, &law, &p), GC_EINVAL);
  /* the card keys, their aliases and what they store */
  CU_ASSERT_EQUAL(gc_law_key_kind("damping"), GC_KIND_DAMPING);
  CU_ASSERT_EQUAL(gc_law_key_kind("rolling_model"), GC_KIND_ROLLING);
  CU_ASSERT_EQUAL(gc_law_key_kind("model"), -1);
  CU_ASSERT_EQUAL(gc_law_key_kind("dampings"), -1);
  gc_card_extra x;
  gc_card_extra_default(&x);
  CU_ASSERT_EQUAL(gc_param_set(&p, &x, "damping", "tsuji", msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_STRING_EQUAL(x.sub[GC_KIND_DAMPING], "tsuji");
  CU_ASSERT_EQUAL(gc_param_set(&p, &x, "normal", "herz", msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "did you mean 'hertz'"));
}

/* The chute card's keys: damping = tsuji composes with the default ep law of the parameter
 * file (data/chute/soybean.params: model = ep), tangential = none makes it frictionless, a bad
 * name is refused naming where it came from, the allowed names and the nearest one. */
static void test_chute_card_keys(void)
{
  gc_chute_run *run = calloc(1, sizeof *run); /* large: paths, the effective card */
  CU_ASSERT_PTR_NOT_NULL_FATAL(run);
  char msg[512] = "";
  char damping[] = "damping=tsuji", none[] = "tangential=none", bad[] = "damping=tsuj";
  char *sets[] = { damping, none };
  int st = gc_chute_run_load(GC_DATADIR "/chute/tiny.chute", sets, 1, run, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_PTR_EQUAL(run->sim.nfd, gc_preset_lookup("ep+tsuji"));
  CU_ASSERT_PTR_EQUAL(run->sim.tfd, gc_preset_lookup("ep"));
  memset(run, 0, sizeof *run);
  st = gc_chute_run_load(GC_DATADIR "/chute/tiny.chute", sets, 2, run, msg, sizeof msg);
  CU_ASSERT_EQUAL(st, GC_SUCCESS);
  CU_ASSERT_PTR_NULL(run->sim.tfd);
  memset(run, 0, sizeof *run);
  char *bad_sets[] = { bad };
  st = gc_chute_run_load(GC_DATADIR "/chute/tiny.chute", bad_sets, 1, run, msg, sizeof msg);
  CU_ASSERT_EQUAL(st, GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "damping = 'tsuj' is not a damping sub-model"));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "did you mean 'tsuji'"));
  free(run);
}

/* The registry generated from the source list: its rows grouped by kind; every composition's
 * parts are registered rows (a sub-model's name is its identifier's suffix); the compositions
 * and the tangential rows are found by name. */
static void test_generated_registry(void)
{
  CU_ASSERT(gc_submodel_count() >= 25); /* 5 normal, 5 damping, 9 tangential, 3 + 3 */
  for (size_t i = 1; i < gc_submodel_count(); i++)
    CU_ASSERT(gc_submodel_at(i)->kind >= gc_submodel_at(i - 1)->kind);
  CU_ASSERT_PTR_EQUAL(gc_submodel_at(0), &gc_normal_hertz);
  int n = 0, n_normal = 0, n_damping = 0;
  for (size_t i = 0; i < gc_submodel_count(); i++) {
    n_normal += gc_submodel_at(i)->kind == GC_KIND_NORMAL;
    n_damping += gc_submodel_at(i)->kind == GC_KIND_DAMPING;
  }
  for (size_t i = 0; i < gc_submodel_count(); i++) {
    const gc_submodel *nm = gc_submodel_at(i);
    if (nm->kind != GC_KIND_NORMAL)
      continue;
    for (size_t j = 0; j < gc_submodel_count(); j++) {
      const gc_submodel *dm = gc_submodel_at(j);
      if (dm->kind != GC_KIND_DAMPING)
        continue;
      const gc_preset *c = gc_preset_compose(nm->name, dm->name);
      CU_ASSERT_PTR_NOT_NULL_FATAL(c);
      CU_ASSERT_PTR_EQUAL(gc_preset_part(c, GC_KIND_NORMAL), nm);
      CU_ASSERT_PTR_EQUAL(gc_preset_part(c, GC_KIND_DAMPING), dm);
      CU_ASSERT_PTR_EQUAL(gc_preset_lookup(c->name), c);
      n++;
    }
  }
  CU_ASSERT_EQUAL(n, n_normal * n_damping);
  CU_ASSERT(n >= 25);
  const gc_preset *t = gc_preset_of_tangential("brendel_dippel");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_PTR_EQUAL(gc_preset_part(t, GC_KIND_TANGENTIAL), &gc_tangential_brendel_dippel);
  CU_ASSERT_PTR_NULL(gc_preset_compose("ep", "nonexistent"));
  char names[128];
  CU_ASSERT_EQUAL(gc_submodel_names(GC_KIND_ROLLING, names, sizeof names),
                  strlen("none, spring, const"));
  CU_ASSERT_STRING_EQUAL(names, "none, spring, const");
}

/* The fit recovers the damping's parameter from low drops: synthetic drops of ep + tsuji at
 * 0.02 - 0.08 m/s (below the soybean's yield against the rigid plane: residual displacement 0)
 * with e_n = 0.7, fitted from e_n = 0.85 with the ep parameters held at their values: e_n comes
 * back within 1e-3 (noise-free data, same integrator). */
static void test_fit_damping_from_low_drops(void)
{
  char msg[512] = "";
  gc_params p;
  gc_card_extra x;
  gc_params_default(&p);
  gc_card_extra_default(&x);
  CU_ASSERT_EQUAL_FATAL(gc_card_read(GC_DATADIR "/chute/soybean.params", &p, &x, msg, sizeof msg),
                        GC_SUCCESS);
  p.e_n = 0.85;
  gc_fit_data d;
  CU_ASSERT_EQUAL_FATAL(gc_fit_data_alloc(&d, 0, 4), GC_SUCCESS);
  for (size_t k = 0; k < 4; k++)
    d.v_in[k] = 0.02 * (double)(k + 1);
  gc_fit_setup s;
  CU_ASSERT_EQUAL_FATAL(gc_fit_setup_default(&s, &p, x.mass, msg, sizeof msg), GC_SUCCESS);
  const gc_preset *model = gc_preset_compose("ep", "tsuji");
  int st = gc_fit_setup_model(&s, model, 0, &p, x.mass, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  int ie = gc_fit_find(&s, GC_PAR_E_N);
  CU_ASSERT_FATAL(ie >= 0); /* the damping's parameter is one of the fit's, from the table */
  double truth[GC_FIT_MAXPAR];
  for (int j = 0; j < s.npar; j++) {
    truth[j] = s.trial[j];
    s.is_free[j] = j == ie;
  }
  truth[ie] = 0.7;
  CU_ASSERT_EQUAL_FATAL(gc_fit_synthesize(&s, &d, truth, 0, 0, 1, msg, sizeof msg), GC_SUCCESS);
  for (size_t k = 0; k < 4; k++)
    CU_ASSERT_DOUBLE_EQUAL(d.e[k], 0.7, 2e-3); /* the drops below yield show e_n */
  gc_fit_problem pb;
  st = gc_fit_problem_init(&pb, &s, &d, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  gc_fit_options o;
  gc_fit_options_default(&o);
  gc_fit_result r;
  st = gc_fit_run(&pb, &o, &r, msg, sizeof msg);
  if (st)
    fprintf(stderr, "\n  %s", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  fprintf(stderr, "\n  ep+tsuji e_n = %.6f (true 0.7, start 0.85)", r.p[ie]);
  GC_ASSERT_REL(r.p[ie], 0.7, 1e-3);
  gc_fit_result_free(&r);
  gc_fit_problem_free(&pb);
  gc_fit_data_free(&d);
}

int gc_test_add_compose(void)
{
  CU_pSuite s = CU_add_suite("laws composed by keys", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "hertz+tsuji+tsuji by keys = tsuji preset, bit for bit",
                   test_keys_equal_tsuji) ||
      !CU_add_test(s, "each preset = its explicit composition", test_presets_equal_compositions) ||
      !CU_add_test(s, "ep+none = ep, bit for bit", test_ep_none_is_ep) ||
      !CU_add_test(s, "ep+tsuji below yield: e = e_n (1e-3)", test_ep_tsuji_restitution) ||
      !CU_add_test(s, "ep+damping never creates energy", test_ep_damping_energy) ||
      !CU_add_test(s, "ep+tsuji keeps the undamped ep state", test_ep_state_undamped) ||
      !CU_add_test(s, "bad names: kind, allowed names, suggestion", test_bad_names) ||
      !CU_add_test(s, "chute card keys", test_chute_card_keys) ||
      !CU_add_test(s, "registry generated from the source list", test_generated_registry) ||
      !CU_add_test(s, "fit recovers e_n of ep+tsuji from low drops",
                   test_fit_damping_from_low_drops))
    return CU_get_error();
  return CUE_SUCCESS;
}
