/* bench_contact.c - cost of one contact step of a contact law in 3-D (gc_contact3_step), per
 * law, on the soybean parameters (the target: ep/ep within 1.5x of Hertz-Mindlin per contact).
 *
 * Many independent oblique impacts of two equal spheres: each pair has a fixed contact normal
 * n (a random direction), starts touching (alpha = 0) with a random approach speed v_n and a
 * tangential speed v_t along a random direction of the tangent plane, and its relative motion
 * is integrated with the reduced mass m* (symplectic Euler: alpha from the velocity, then the
 * velocity from the force F on body 1: d(v_2 - v_1)/dt = -F / m*).  When a pair separates it is
 * restarted with new random velocities and a new normal.  All pairs of a law run the same
 * random sequence (GSL mt19937, fixed seed), and every repetition starts from the same state,
 * so the best of the repetitions measures the same work each time; each repetition runs every
 * law in turn, so that on a shared machine the laws see the same load.
 *
 * Printed per law: nanoseconds per contact step (wall time of the whole loop, clock_gettime
 * CLOCK_MONOTONIC, divided by the steps with alpha > 0; the loop's own integration and the
 * restarts are included and are the same for every law), the number of contact steps, the
 * fraction of them that were plastic (P_max > P_Y after the step; ep only) and a checksum of
 * the forces (sum over steps of F . (1, 2, 3)) which shows whether a change of the code
 * changed the results.  The rows "-lanes" step the same pairs GC_CONTACT3_LANES at a time
 * with gc_contact3_step_lanes, as the chute does (the Hertz-Mindlin ones side by side in
 * vector lanes, the others one by one), and must give the same checksum as their one-by-one
 * rows.  Not a test: `make` builds it, scripts/bench-contact runs it. */
#include "gc_io.h"
#include "gc_model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GC_DATADIR
#define GC_DATADIR "data"
#endif

typedef struct {
  const char *label, *nfd, *tfd;
  int lanes; /* 1: stepped GC_CONTACT3_LANES pairs at a time (gc_contact3_step_lanes), as the
              * chute steps its contacts; the same numbers, so the same checksum */
} law_def;

static const law_def laws[] = {
  { "ep/ep", "ep", "ep", 0 },
  { "hertz/md", "hertz", "md", 0 },
  { "tsuji/tsuji", "tsuji", "tsuji", 0 },
  { "ep/ep-lanes", "ep", "ep", 1 },
  { "tsuji-lanes", "tsuji", "tsuji", 1 },
};
#define NLAWS (sizeof laws / sizeof laws[0])

typedef struct {
  size_t npairs, nsteps, reps;
  double vn_lo, vn_hi, vt_hi, dt;
  unsigned long seed;
} bench_cfg;

typedef struct {
  double ns_per_step;   /* best over the repetitions */
  size_t contact_steps; /* steps with alpha > 0 (same in every repetition) */
  size_t plastic_steps; /* of those, with P_max > P_Y after the step */
  double checksum;
} bench_result;

/* Per pair: the normal, the relative velocity v_2 - v_1 and the overlap. */
typedef struct {
  double n[3], v[3], alpha;
} pair_state;

static void pair_start(gsl_rng *r, const bench_cfg *c, pair_state *p)
{
  double t[3], u[3];
  gsl_ran_dir_3d(r, &p->n[0], &p->n[1], &p->n[2]);
  /* a unit vector of the tangent plane: a random direction with its normal part removed */
  double un;
  do {
    gsl_ran_dir_3d(r, &u[0], &u[1], &u[2]);
    un = u[0] * p->n[0] + u[1] * p->n[1] + u[2] * p->n[2];
    for (int d = 0; d < 3; d++)
      t[d] = u[d] - un * p->n[d];
  } while (t[0] * t[0] + t[1] * t[1] + t[2] * t[2] < 1e-4);
  double tm = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  double vn = c->vn_lo + (c->vn_hi - c->vn_lo) * gsl_rng_uniform(r);
  double vt = c->vt_hi * gsl_rng_uniform(r);
  /* n points from body 1 to body 2: approaching means (v_2 - v_1) . n < 0 */
  for (int d = 0; d < 3; d++)
    p->v[d] = -vn * p->n[d] + vt * t[d] / tm;
  p->alpha = 0.0;
}

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* One repetition: every pair from its start, nsteps steps each (pairs stepped in turn, as a
 * simulator sweeps its contact list; with lanes, GC_CONTACT3_LANES pairs at a time: their
 * overlaps, then their steps, then each one's restart or velocity in pair order, which gives
 * every pair the same numbers). */
static int run_once(const gc_law *law, int lanes, const bench_cfg *c, double m_eff, double *rec,
                    pair_state *ps, gsl_rng *r, bench_result *res, double *ns)
{
  const size_t stride = GC_CONTACT3_HEAD + gc_law_history_size(law);
  const double P_Y = law->pair.P_Y;
  const double zero[3] = { 0.0, 0.0, 0.0 };
  gsl_rng_set(r, c->seed);
  memset(rec, 0, c->npairs * stride * sizeof *rec);
  for (size_t i = 0; i < c->npairs; i++)
    pair_start(r, c, &ps[i]);
  size_t ncontact = 0, nplastic = 0;
  double sum = 0.0;
  double t0 = now_ns();
  /* groups of GC_CONTACT3_LANES pairs for the lanes, else of one pair stepped alone */
  const size_t width = lanes ? GC_CONTACT3_LANES : 1;
  for (size_t k = 0; k < c->nsteps; k++) {
    for (size_t i0 = 0; i0 < c->npairs; i0 += width) {
      const int nl = (int)(c->npairs - i0 < width ? c->npairs - i0 : width);
      gc_contact3_lanes b;
      for (int l = 0; l < nl; l++) {
        pair_state *p = &ps[i0 + l];
        double vn = p->v[0] * p->n[0] + p->v[1] * p->n[1] + p->v[2] * p->n[2];
        p->alpha -= vn * c->dt;
        b.ct[l] = (gc_contact3 *)(rec + (i0 + l) * stride);
        if (!lanes) {
          b.status[l] = gc_contact3_step(law, b.ct[l], p->alpha, p->n, p->v, zero, c->dt, 0.0, 0,
                                         b.F[l], b.M[l], &b.active[l], b.work[l]);
          continue;
        }
        b.law[l] = law;
        b.alpha[l] = p->alpha;
        b.ds_roll[l] = 0.0;
        memcpy(b.nvec[l], p->n, sizeof p->n);
        memcpy(b.vrel[l], p->v, sizeof p->v);
        memcpy(b.wrel[l], zero, sizeof zero);
      }
      if (lanes)
        gc_contact3_step_lanes(&b, nl, c->dt, 0);
      for (int l = 0; l < nl; l++) {
        pair_state *p = &ps[i0 + l];
        if (b.status[l]) {
          fprintf(stderr, "bench_contact: %s at pair %zu, step %zu\n", gc_strerror(b.status[l]),
                  i0 + l, k);
          return b.status[l];
        }
        if (!(p->alpha > 0.0)) {
          pair_start(r, c, p);
          continue;
        }
        ncontact++;
        nplastic += gc_law_hist_normal(law, b.ct[l]->h)->P_max > P_Y;
        if (b.active[l]) {
          const double *F = b.F[l];
          sum += F[0] + 2.0 * F[1] + 3.0 * F[2];
          for (int d = 0; d < 3; d++)
            p->v[d] -= F[d] / m_eff * c->dt;
        }
      }
    }
  }
  *ns = now_ns() - t0;
  res->contact_steps = ncontact;
  res->plastic_steps = nplastic;
  res->checksum = sum;
  return GC_SUCCESS;
}

/* One law's set-up and storage. */
typedef struct {
  gc_law law;
  double *rec;
  pair_state *ps;
} law_run;

static int law_run_init(law_run *lr, const law_def *ld, const gc_params *p, const bench_cfg *c)
{
  char msg[256];
  lr->rec = NULL;
  lr->ps = NULL;
  int st = gc_law_init_preset(&lr->law, gc_preset_lookup(ld->nfd), gc_preset_lookup(ld->tfd), p,
                              msg, sizeof msg);
  if (st) {
    fprintf(stderr, "bench_contact: law %s: %s\n", ld->label, msg);
    return st;
  }
  const size_t stride = GC_CONTACT3_HEAD + gc_law_history_size(&lr->law);
  lr->rec = malloc(c->npairs * stride * sizeof *lr->rec);
  lr->ps = malloc(c->npairs * sizeof *lr->ps);
  return lr->rec && lr->ps ? GC_SUCCESS : GC_ENOMEM;
}

static void usage(FILE *f)
{
  fprintf(f,
          "usage: bench_contact [-p PARAMS] [-n PAIRS] [-s STEPS] [-r REPEAT] [-v VMIN,VMAX] "
          "[-t VTMAX] [-e E_N] [-S SEED] [-l LAW]\n"
          "  -p PARAMS   parameter file (default " GC_DATADIR "/chute/soybean.params)\n"
          "  -n PAIRS    independent contact pairs (default 4096)\n"
          "  -s STEPS    steps of every pair per repetition (default 400)\n"
          "  -r REPEAT   repetitions, the best is printed (default 5)\n"
          "  -v MIN,MAX  range of the normal impact speed [m/s] (default 0.05,1)\n"
          "  -t VTMAX    largest tangential speed [m/s] (default 0.5)\n"
          "  -e E_N      restitution of the tsuji law (default 0.6, as bench-chute)\n"
          "  -S SEED     seed of the GSL mt19937 generator (default 1)\n"
          "  -l LAW      only this law (ep/ep, hertz/md, tsuji/tsuji, ep/ep-lanes, tsuji-lanes),\n"
          "              e.g. under a profiler\n");
}

static int parse_pos(const char *s, double *v)
{
  return gc_parse_double(s, v) == 0 && *v > 0;
}

int main(int argc, char **argv)
{
  const char *path = GC_DATADIR "/chute/soybean.params";
  bench_cfg c = { 4096, 400, 5, 0.05, 1.0, 0.5, 0.0, 1 };
  double e_n = 0.6, x;
  const char *only = NULL;
  int opt;
  while ((opt = getopt(argc, argv, "p:n:s:r:v:t:e:S:l:h")) != -1) {
    switch (opt) {
    case 'p': path = optarg; break;
    case 'l': only = optarg; break;
    case 'n':
    case 's':
    case 'r':
    case 'S':
      if (!parse_pos(optarg, &x) || x != floor(x) || x > 1e9) {
        fprintf(stderr, "bench_contact: -%c: '%s' is not a positive integer\n", opt, optarg);
        return 2;
      }
      if (opt == 'n')
        c.npairs = (size_t)x;
      else if (opt == 's')
        c.nsteps = (size_t)x;
      else if (opt == 'r')
        c.reps = (size_t)x;
      else
        c.seed = (unsigned long)x;
      break;
    case 'v': {
      const char *comma = strchr(optarg, ',');
      char lo[64];
      if (!comma || (size_t)(comma - optarg) >= sizeof lo) {
        fprintf(stderr, "bench_contact: -v: '%s' is not MIN,MAX\n", optarg);
        return 2;
      }
      memcpy(lo, optarg, (size_t)(comma - optarg));
      lo[comma - optarg] = '\0';
      if (!parse_pos(lo, &c.vn_lo) || !parse_pos(comma + 1, &c.vn_hi) || c.vn_hi < c.vn_lo) {
        fprintf(stderr, "bench_contact: -v: '%s' is not 0 < MIN <= MAX\n", optarg);
        return 2;
      }
      break;
    }
    case 't':
      if (gc_parse_double(optarg, &c.vt_hi) || !(c.vt_hi >= 0)) {
        fprintf(stderr, "bench_contact: -t: '%s' is not a speed >= 0\n", optarg);
        return 2;
      }
      break;
    case 'e':
      if (!parse_pos(optarg, &e_n) || e_n > 1) {
        fprintf(stderr, "bench_contact: -e: '%s' is not in (0, 1]\n", optarg);
        return 2;
      }
      break;
    case 'h': usage(stdout); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (optind != argc) {
    usage(stderr);
    return 2;
  }
  gc_params p;
  gc_card_extra xx;
  char msg[512];
  gc_params_default(&p);
  gc_card_extra_default(&xx);
  if (gc_card_read(path, &p, &xx, msg, sizeof msg)) {
    fprintf(stderr, "bench_contact: %s\n", msg);
    return 1;
  }
  if (!(xx.mass > 0) || !(p.R1 > 0)) {
    fprintf(stderr, "bench_contact: %s: needs R and m\n", path);
    return 1;
  }
  /* a particle-particle pair as the chute builds it (src/chute_io.c): body 2 of the same
   * material, P_Y derived from sY (eq. 6.19), m* = m / 2 */
  p.R2 = p.R1;
  p.E2 = p.E1;
  p.nu2 = p.nu1;
  p.sY2 = p.sY1;
  p.P_Y = 0.0;
  p.m_eff = xx.mass / 2.0;
  p.e_n = e_n;
  /* dt as the chute's: the Hertz contact duration (eq. 3.22) at the fastest impact / 40 */
  gc_law hz;
  if (gc_law_init_preset(&hz, gc_preset_lookup("hertz"), NULL, &p, msg, sizeof msg)) {
    fprintf(stderr, "bench_contact: %s\n", msg);
    return 1;
  }
  c.dt = gc_hertz_contact_time(p.m_eff, hz.pair.R_star, hz.pair.E_star, c.vn_hi) / 40.0;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r)
    return 1;
  printf("# bench_contact: %zu pairs of spheres R = %g m, m* = %g kg (%s), v_n %g-%g m/s, "
         "v_t 0-%g m/s, dt = %.4g s, %zu steps per pair, best of %zu\n",
         c.npairs, p.R1, p.m_eff, path, c.vn_lo, c.vn_hi, c.vt_hi, c.dt, c.nsteps, c.reps);
  printf("%-12s %10s %14s %8s %24s\n", "law", "ns/step", "contact-steps", "plastic", "checksum");
  if (only) {
    size_t i;
    for (i = 0; i < NLAWS && strcmp(laws[i].label, only) != 0; i++)
      ;
    if (i == NLAWS) {
      fprintf(stderr,
              "bench_contact: -l: unknown law '%s' (ep/ep, hertz/md, tsuji/tsuji, "
              "ep/ep-lanes, tsuji-lanes)\n",
              only);
      gsl_rng_free(r);
      return 2;
    }
  }
  /* the repetitions outside, the laws inside: on a shared machine every law sees the same
   * load, so the ratios of one call are comparable */
  bench_result res[NLAWS];
  law_run lr[NLAWS];
  int use[NLAWS];
  int st = 0;
  for (size_t i = 0; i < NLAWS; i++) {
    res[i].ns_per_step = INFINITY;
    lr[i].rec = NULL;
    lr[i].ps = NULL;
    use[i] = !only || strcmp(laws[i].label, only) == 0;
    if (use[i] && !st)
      st = law_run_init(&lr[i], &laws[i], &p, &c);
  }
  for (size_t k = 0; k < c.reps && !st; k++)
    for (size_t i = 0; i < NLAWS && !st; i++) {
      double ns = 0.0;
      if (!use[i])
        continue;
      st = run_once(&lr[i].law, laws[i].lanes, &c, p.m_eff, lr[i].rec, lr[i].ps, r, &res[i], &ns);
      if (!st && res[i].contact_steps > 0 && ns / (double)res[i].contact_steps < res[i].ns_per_step)
        res[i].ns_per_step = ns / (double)res[i].contact_steps;
    }
  for (size_t i = 0; i < NLAWS && !st; i++) {
    if (!use[i])
      continue;
    char pl[16] = "-";
    if (strcmp(laws[i].nfd, "ep") == 0)
      snprintf(pl, sizeof pl, "%.3f",
               res[i].contact_steps ? (double)res[i].plastic_steps / (double)res[i].contact_steps
                                    : 0.0);
    printf("%-12s %10.1f %14zu %8s %24.17g\n", laws[i].label, res[i].ns_per_step,
           res[i].contact_steps, pl, res[i].checksum);
  }
  for (size_t i = 0; i < NLAWS; i++) {
    free(lr[i].rec);
    free(lr[i].ps);
  }
  gsl_rng_free(r);
  if (st)
    return 1;
  if (only)
    return 0;
  printf("ratio ep/ep / hertz/md:       %.2f\n", res[0].ns_per_step / res[1].ns_per_step);
  printf("ratio tsuji/tsuji / hertz/md: %.2f\n", res[2].ns_per_step / res[1].ns_per_step);
  /* as the chute steps them (ep's lanes go to the scalar step; the checksums must equal the
   * one-by-one rows') */
  printf("ratio ep/ep-lanes / tsuji-lanes: %.2f; lanes against one by one: ep %.2f, tsuji %.2f; "
         "checksums %s\n",
         res[3].ns_per_step / res[4].ns_per_step, res[3].ns_per_step / res[0].ns_per_step,
         res[4].ns_per_step / res[2].ns_per_step,
         res[3].checksum == res[0].checksum && res[4].checksum == res[2].checksum ? "equal"
                                                                                  : "DIFFER");
  return 0;
}
