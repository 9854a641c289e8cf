/* contact3.c - one contact between two bodies in 3-D: the normal, tangential and rolling /
 * twisting parts of a gc_law driven by the relative motion of the contact point (seed sec.
 * 4.2.3, eq. 4.9-4.21).  Shared by the chute simulator and libgranucal's users (the LAMMPS
 * pair style), so that both compute the same force from the same history, bit for bit. */
#include "gc_internal.h"
#include "hm_step.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline double dot3(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* gc_law_normal and gc_law_tangential (law.c) for the Hertz-Mindlin law (law->hertz_mindlin):
 * the same sub-model steps in the same order with the same checks, called directly (inline)
 * instead of through the law's table, so the same numbers without four calls and their
 * pointer chases per step; tests/test_damping.c compares the two on random paths. */
static inline int hm_normal(const gc_law *law, double *h, double alpha, double alpha_dot,
                            gc_normal *out)
{
  gc_hist_normal *hn = (gc_hist_normal *)(h + law->off[GC_KIND_NORMAL]);
  int st = gc_hertz_normal_step(&law->pair, hn, alpha, out);
  if (!st)
    st = gc_tsuji_damping_step(&law->pair, hn, alpha, alpha_dot, out);
  if (!st && !gc_normal_finite(out))
    return GC_ENAN;
  return st;
}

static inline int hm_tangential(const gc_law *law, double *h, const gc_normal *n, double d_delta,
                                double delta_dot, gc_tangential *out)
{
  gc_normal clipped;
  int st =
      gc_tsuji_tangential_step(&law->pair, (gc_hist_tangential *)(h + law->off[GC_KIND_TANGENTIAL]),
                               gc_friction_normal(n, &clipped), d_delta, delta_dot, out);
  if (!st && !gc_tangential_finite(out))
    return GC_ENAN;
  return st;
}

/* A contact that touches (alpha > 0) for the first time since it was virgin (hn, its normal
 * header, not in contact; the list zeroes new payloads): its history initialised and no
 * tangential force carried.  contact3_step and the lanes both begin with it. */
static inline void first_touch(const gc_law *law, gc_contact3 *ct, const gc_hist_normal *hn)
{
  if (hn->in_contact == 0.0) {
    gc_law_history_init(law, ct->h);
    ct->Q[0] = ct->Q[1] = ct->Q[2] = 0.0;
  }
}

/* Tangential force of a contact in 3-D (seed sec. 4.2.3, eq. 4.10-4.21).
 *   ct     history: ct->Q is the tangential force vector on body 1 at the previous step,
 *          ct->h the history block, whose tangential slice is the scalar state of the TFD model along the direction t of that force
 *   no     this step's normal result (P, k_t0 = K_T0)
 *   n      unit normal from body 1 to body 2;  dd  Delta delta = (1 - n n) v_rel dt
 * What is done:
 *   (4.10) Q0 = (1 - n n) Q_old: the old force projected into the current tangent plane;
 *   (4.11) Q_n = |Q_old| Q0 / |Q0|: same magnitude, direction t = Q0/|Q0|.  The scalar state
 *          of the TFD model tracks the history along t with the force as a signed number; t is
 *          chosen along the carried force, so the scalar force must be >= 0: if the state holds
 *          a negative force (the previous step ended with the force against its t), t has been
 *          reversed, and the state is mirrored (Q, Q*, delta negated, q_dir flipped).  The
 *          scalar force is then set to |Q_old| (it may differ from the state's own value by the
 *          perpendicular increment and the cap of the previous step, eq. 4.20-4.21).
 *          Without a carried force (Q_old = 0 or normal to the plane) t is the direction of
 *          Delta delta (then Delta delta_perp = 0) and the scalar force is 0;
 *   (4.14-4.16) Delta delta_par = (t . Delta delta), Delta delta_perp = Delta delta - Delta
 *          delta_par t;
 *   (4.17-4.18) the scalar TFD model (gc_law_tangential: K_T of eq. 4.7 / 3.24 with the
 *          varying-P transitions of the model) steps Q_par with Delta delta_par;
 *   (4.19) Q_perp = K_T0 Delta delta_perp (virgin loading), K_T0 = no->k_t0;
 *   (4.20) Q' = Q_par t + Q_perp;
 *   (4.21) Q = min(|Q'|, mu P) Q'/|Q'| when |Q'| <= mu P.  When the cap engages, the direction
 *          is that of the elastic trial force Q_tr = |Q_old| t + K_T0 Delta delta (the radial
 *          return of Cundall-Strack / LAMMPS), not that of Q': a sliding contact's Q_par is
 *          already mu P, the parallel increment is absorbed by the TFD's own cap while
 *          Q_perp = K_T0 Delta delta_perp enters in full, so Q'/|Q'| turns the force by
 *          atan(K_T0 |Delta delta_perp| / (mu P)).  With k = K_T0 |Delta delta| / (mu P) > 2
 *          (fast slip, stiff contact, light load) that overshoots the slip direction every
 *          step: a rounding-size perpendicular slip grows into a 2-cycle at +-theta,
 *          2 cos theta = k cos 2 theta (theta -> 45 deg), and the sliding friction along the
 *          slip is mu P cos theta (0.71-0.99 of mu P in the chute, granucal-chute(5); 0.72 for
 *          the block of tests/test_slope.c at k = 67).  Q_tr's angle to the slip direction only
 *          shrinks, and in 2-D (no perpendicular part) Q_tr is along +-t like Q', so nothing
 *          changes there.
 * ds_roll: the rolling distance of the step (sec. 5.2, rolling_distance), 0 without the
 * rolling correction.  hm: 1 for the Hertz-Mindlin law (see hm_normal), a constant where this
 * is inlined. */
static inline int tangential(const gc_law *law, gc_contact3 *ct, const gc_normal *no,
                             const double n[3], const double dd[3], double dt, double ds_roll,
                             const int hm)
{
  gc_hist_tangential *s = gc_law_hist_tangential(law, ct->h);
  double t[3], qn = dot3(ct->Q, n), qc = 0.0; /* qc: the carried force's magnitude */
  double Q0[3] = { ct->Q[0] - qn * n[0], ct->Q[1] - qn * n[1], ct->Q[2] - qn * n[2] };
  double m0 = sqrt(dot3(Q0, Q0)), mold = sqrt(dot3(ct->Q, ct->Q));
  if (m0 > 0.0 && mold > 0.0) {
    for (int d = 0; d < 3; d++)
      t[d] = Q0[d] / m0;
    if (s->Q < 0.0) {
      s->Q = -s->Q;
      s->Q_star = -s->Q_star;
      s->delta = -s->delta;
      s->q_dir = -s->q_dir;
    }
    s->Q = qc = mold;
  } else {
    double md = sqrt(dot3(dd, dd));
    if (md > 0.0) {
      for (int d = 0; d < 3; d++)
        t[d] = dd[d] / md;
    } else {
      t[0] = t[1] = t[2] = 0.0;
    }
    s->Q = 0.0;
  }
  double dpar = dot3(dd, t);
  double dperp[3] = { dd[0] - dpar * t[0], dd[1] - dpar * t[1], dd[2] - dpar * t[2] };
  gc_tangential to;
  int st = hm ? hm_tangential(law, ct->h, no, dpar, dpar / dt, &to)
              : gc_law_tangential(law, ct->h, no, dpar, dpar / dt, ds_roll, &to);
  if (st)
    return st;
  /* written out, not as a loop into an array: a loop's scalar stores read back as one vector
   * by dot3 stall the store forwarding */
  const double k0 = no->k_t0;
  double Q[3] = { to.Q * t[0] + k0 * dperp[0], to.Q * t[1] + k0 * dperp[1],
                  to.Q * t[2] + k0 * dperp[2] };
  double mq = sqrt(Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2]), lim = law->pair.p.mu * no->P;
  if (mq > lim) {
    /* eq. 4.21 with the direction of the elastic trial force (see above) */
    double Qt[3];
    for (int d = 0; d < 3; d++)
      Qt[d] = qc * t[d] + no->k_t0 * dd[d];
    double mt = sqrt(dot3(Qt, Qt));
    if (mt > 0.0 && dot3(Qt, Q) > 0.0) {
      for (int d = 0; d < 3; d++)
        Q[d] = Qt[d] * (lim / mt);
    } else {
      double f = mq > 0 ? lim / mq : 0.0;
      for (int d = 0; d < 3; d++)
        Q[d] *= f;
    }
  }
  memcpy(ct->Q, Q, sizeof Q);
  return GC_SUCCESS;
}

/* One contact between body 1 (a particle sphere) and body 2.  n points from 1 to 2, alpha is
 * the overlap, vrel = v_2(c) - v_1(c), wrel = w_1 - w_2 the relative angular velocity of the
 * two bodies (read only when the law has rolling or twisting resistance).  On return F is the
 * force on body 1 [N], M the rolling + twisting couple on body 1 [N m] (0 without them); 0
 * when apart.  Returns 1 in *active if a force acts.  keep: on separation keep the model state (the
 * history-at-separation option), else reset it.  work[0], work[1]: the normal and tangential
 * work the contact absorbed in this step [J] (trapezoid, see gc_chute_energy):
 *   normal      1/2 (P_{n-1} + P_n) (alpha_n - alpha_{n-1}),  alpha clamped at 0 on separation;
 *   tangential  1/2 (Q_{n-1} + Q_n) . Delta delta_n,
 * the power -F_1 . v_rel of the pair's forces on the two bodies (the contact point is the same
 * for both) integrated over the step. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int
contact3_step(const gc_law *law, gc_contact3 *ct, double alpha, const double n[3],
              const double vrel[3], const double wrel[3], double dt, double ds_roll, int keep,
              double F[3], double M[3], int *active, double work[2], const int hm)
{
  M[0] = M[1] = M[2] = 0.0;
  *active = 0;
  gc_hist_normal *hn = gc_law_hist_normal(law, ct->h);
  work[0] = work[1] = 0.0;
  if (!(alpha > 0.0)) {
    /* apart: the last part of the unloading, from alpha_{n-1} to 0 (the tangential part of
     * that step is not counted: it is of the order of the step error) */
    work[0] = -0.5 * ct->P * ct->alpha;
    if (keep) {
      /* the history block stays; no force is carried over the gap */
      ct->Q[0] = ct->Q[1] = ct->Q[2] = 0.0;
      ct->P = 0.0;
      ct->alpha = 0.0;
    } else if (hn->in_contact != 0.0 || ct->P != 0.0 || hn->alpha != 0.0 || ct->alpha != 0.0) {
      /* a contact that separates (alpha <= 0, P = 0) loses its history; the next one is
       * virgin (the history is zeroed here and initialised at the first touch) */
      memset(ct->h, 0, law->nhist * sizeof *ct->h);
      ct->Q[0] = ct->Q[1] = ct->Q[2] = 0.0;
      ct->P = 0.0;
      ct->alpha = 0.0;
    }
    F[0] = F[1] = F[2] = 0.0;
    if (alpha != alpha)
      return GC_ENAN;
    return GC_SUCCESS;
  }
  first_touch(law, ct, hn);
  const double P0 = ct->P, a0 = ct->alpha, Q0[3] = { ct->Q[0], ct->Q[1], ct->Q[2] };
  double vn = dot3(vrel, n);
  gc_normal no;
  int st = hm ? hm_normal(law, ct->h, alpha, -vn, &no) : gc_law_normal(law, ct->h, alpha, -vn, &no);
  if (st)
    return st;
  ct->P = no.P;
  ct->alpha = alpha;
  work[0] = 0.5 * (P0 + no.P) * (alpha - a0);
  if (hm || gc_law_frictional(law)) {
    double dd[3] = { (vrel[0] - vn * n[0]) * dt, (vrel[1] - vn * n[1]) * dt,
                     (vrel[2] - vn * n[2]) * dt };
    st = tangential(law, ct, &no, n, dd, dt, ds_roll, hm);
    if (st)
      return st;
    work[1] = 0.5 * ((Q0[0] + ct->Q[0]) * dd[0] + (Q0[1] + ct->Q[1]) * dd[1] +
                     (Q0[2] + ct->Q[2]) * dd[2]);
  }
  if (!hm && (gc_law_rolls(law) || gc_law_twists(law))) {
    const double dth[3] = { wrel[0] * dt, wrel[1] * dt, wrel[2] * dt };
    st = gc_law_torque(law, ct->h, &no, n, dth, wrel, M);
    if (st)
      return st;
    /* the couple's work: M on body 1, -M on body 2, so the contact absorbs -M . (w1 - w2) dt
     * (with the half-step spins, as the tangential work uses the half-step slip); counted
     * with the tangential work */
    work[1] -= (M[0] * wrel[0] + M[1] * wrel[1] + M[2] * wrel[2]) * dt;
  }
  if (no.P > 0.0 || ct->Q[0] != 0.0 || ct->Q[1] != 0.0 || ct->Q[2] != 0.0) {
    for (int d = 0; d < 3; d++)
      F[d] = -no.P * n[d] + ct->Q[d];
    *active = 1;
  } else {
    F[0] = F[1] = F[2] = 0.0;
  }
  return GC_SUCCESS;
}

/* The two specialisations (contact3_step with hm = 0 and 1), functions of their own with the
 * signature of gc_contact3_step, which ends in a jump to either (noipa: GCC keeps their calling
 * convention, else it trimmed contact3_hm's unused ds_roll and had more arguments to move);
 * the Hertz-Mindlin steps save ~170 instructions per contact, the other laws pay the test and
 * the jump (~10). */
#if defined(__GNUC__) && !defined(__clang__)
#define GC_JUMP_TARGET __attribute__((noipa))
#elif defined(__GNUC__)
#define GC_JUMP_TARGET __attribute__((noinline))
#else
#define GC_JUMP_TARGET
#endif
static GC_JUMP_TARGET int contact3_table(const gc_law *law, gc_contact3 *ct, double alpha,
                                         const double n[3], const double vrel[3],
                                         const double wrel[3], double dt, double ds_roll, int keep,
                                         double F[3], double M[3], int *active, double work[2])
{
  return contact3_step(law, ct, alpha, n, vrel, wrel, dt, ds_roll, keep, F, M, active, work, 0);
}

static GC_JUMP_TARGET int contact3_hm(const gc_law *law, gc_contact3 *ct, double alpha,
                                      const double n[3], const double vrel[3], const double wrel[3],
                                      double dt, double ds_roll, int keep, double F[3], double M[3],
                                      int *active, double work[2])
{
  return contact3_step(law, ct, alpha, n, vrel, wrel, dt, ds_roll, keep, F, M, active, work, 1);
}

int gc_contact3_step(const gc_law *law, gc_contact3 *ct, double alpha, const double n[3],
                     const double vrel[3], const double wrel[3], double dt, double ds_roll,
                     int keep, double F[3], double M[3], int *active, double work[2])
{
  if (law->hertz_mindlin)
    return contact3_hm(law, ct, alpha, n, vrel, wrel, dt, ds_roll, keep, F, M, active, work);
  return contact3_table(law, ct, alpha, n, vrel, wrel, dt, ds_roll, keep, F, M, active, work);
}

/* ------------------------------------------------------------------ lanes */

#define CL GC_CONTACT3_LANES

/* The rows of CL contacts that touch (alpha > 0, the record's first touch already set up) for
 * hm_rows_step, one block (gc_hm_rows_step's). */
typedef struct {
  double r[GC_HM_NROWS * CL]; /* quantity q of lane v: r[q * CL + v] */
} hm_lanes;

/* contact3_step with hm = 1 for n contacts in rows: gc_hm_step (hm_step.h: hm_normal,
 * tangential and hm_tangential written out with every test a select, each row's operations
 * those of the scalar step in its order; the scalar's early returns on a non-finite number
 * become the row's flag ok) on each row.  gc_hm_rows_step's loop, and gc_contact3_step_lanes'
 * with n = CL and its rows in an hm_lanes (inlined there, so that the rows' offsets are
 * constants: an array of 37 row pointers costs the step 2-4 %).  The rows in restrict locals,
 * each its own part of the block. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
hm_rows_step(double *rows, size_t stride, size_t n, double dt)
{
  const double *restrict r_alpha = rows + GC_HM_ALPHA * stride;
  const double *restrict r_n0 = rows + GC_HM_N0 * stride;
  const double *restrict r_n1 = rows + GC_HM_N1 * stride;
  const double *restrict r_n2 = rows + GC_HM_N2 * stride;
  const double *restrict r_vrel0 = rows + GC_HM_VREL0 * stride;
  const double *restrict r_vrel1 = rows + GC_HM_VREL1 * stride;
  const double *restrict r_vrel2 = rows + GC_HM_VREL2 * stride;
  const double *restrict r_R_star = rows + GC_HM_R_STAR * stride;
  const double *restrict r_k_hertz = rows + GC_HM_K_HERTZ * stride;
  const double *restrict r_E_star = rows + GC_HM_E_STAR * stride;
  const double *restrict r_kt0_c = rows + GC_HM_KT0_C * stride;
  const double *restrict r_tsuji_c = rows + GC_HM_TSUJI_C * stride;
  const double *restrict r_mu = rows + GC_HM_MU * stride;
  const double *restrict r_tension = rows + GC_HM_TENSION * stride;
  const double *restrict r_Q0 = rows + GC_HM_Q0 * stride;
  const double *restrict r_Q1 = rows + GC_HM_Q1 * stride;
  const double *restrict r_Q2 = rows + GC_HM_Q2 * stride;
  const double *restrict r_a = rows + GC_HM_A * stride;
  double *restrict r_P = rows + GC_HM_P * stride;
  double *restrict r_P_max = rows + GC_HM_P_MAX * stride;
  double *restrict r_alpha_max = rows + GC_HM_ALPHA_MAX * stride;
  double *restrict r_tQ = rows + GC_HM_TQ * stride;
  double *restrict r_Q_star = rows + GC_HM_Q_STAR * stride;
  double *restrict r_delta = rows + GC_HM_DELTA * stride;
  double *restrict r_q_dir = rows + GC_HM_Q_DIR * stride;
  double *restrict r_n_steps = rows + GC_HM_N_STEPS * stride;
  double *restrict r_Qn0 = rows + GC_HM_QN0 * stride;
  double *restrict r_Qn1 = rows + GC_HM_QN1 * stride;
  double *restrict r_Qn2 = rows + GC_HM_QN2 * stride;
  double *restrict r_F0 = rows + GC_HM_F0 * stride;
  double *restrict r_F1 = rows + GC_HM_F1 * stride;
  double *restrict r_F2 = rows + GC_HM_F2 * stride;
  double *restrict r_work0 = rows + GC_HM_WORK_N * stride;
  double *restrict r_work1 = rows + GC_HM_WORK_T * stride;
  double *restrict r_sliding = rows + GC_HM_SLIDING * stride;
  double *restrict r_active = rows + GC_HM_ACTIVE * stride;
  double *restrict r_ok = rows + GC_HM_OK * stride;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (size_t l = 0; l < n; l++) {
    const gc_hm_consts k = { r_R_star[l],  r_k_hertz[l], r_E_star[l], r_kt0_c[l],
                             r_tsuji_c[l], r_mu[l],      r_tension[l] };
    gc_hm_record s = { r_P[l],      r_P_max[l], r_alpha_max[l], r_tQ[l],
                       r_Q_star[l], r_delta[l], r_q_dir[l],     r_n_steps[l] };
    gc_hm_result o;
    gc_hm_step(r_alpha[l], r_n0[l], r_n1[l], r_n2[l], r_vrel0[l], r_vrel1[l], r_vrel2[l], &k,
               r_Q0[l], r_Q1[l], r_Q2[l], r_a[l], dt, &s, &o);
    r_P[l] = s.P, r_P_max[l] = s.P_max, r_alpha_max[l] = s.alpha_max, r_tQ[l] = s.tQ;
    r_Q_star[l] = s.Q_star, r_delta[l] = s.delta, r_q_dir[l] = s.q_dir;
    r_n_steps[l] = s.n_steps;
    r_Qn0[l] = o.Q0, r_Qn1[l] = o.Q1, r_Qn2[l] = o.Q2;
    r_F0[l] = o.F0, r_F1[l] = o.F1, r_F2[l] = o.F2;
    r_work0[l] = o.work_n, r_work1[l] = o.work_t;
    r_sliding[l] = o.sliding, r_active[l] = o.active, r_ok[l] = o.ok;
  }
}

int gc_hm_rows_step(double *rows, size_t stride, size_t n, double dt)
{
  if (stride < n)
    return GC_EINVAL;
  hm_rows_step(rows, stride, n, dt);
  return GC_SUCCESS;
}

/* hm_rows_step over the CL lanes of z */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
hm_lanes_step(hm_lanes *z, double dt)
{
  hm_rows_step(z->r, CL, CL, dt);
}

/* row[v] = the double at byte offset off of base[v], for the CL lanes: with GCC's vector
 * extension one vector formed in registers and stored whole, since the step's vector loads of
 * a row stored as CL scalars could not take it from the store buffer and would wait for the
 * stores to reach the cache; elsewhere CL stores.  row must be aligned as a lane_vec (the rows
 * of an hm_lanes declared LANE_ALIGN are: each is CL doubles). */
#define AT(v) (*(const double *)(base[v] + off))
#define FLAG(v) (*(const int *)(base[v] + off) ? 1.0 : 0.0)
_Static_assert(CL == 8, "lane_row takes eight numbers");
#if defined(__GNUC__)
typedef double lane_vec __attribute__((vector_size(CL * sizeof(double))));
static inline void lane_row(double row[CL], const char *const base[CL], size_t off)
{
  *(lane_vec *)row = (lane_vec){ AT(0), AT(1), AT(2), AT(3), AT(4), AT(5), AT(6), AT(7) };
}
/* the same for an int flag at off: 1.0 where it is set, else 0.0 */
static inline void lane_flags(double row[CL], const char *const base[CL], size_t off)
{
  *(lane_vec *)row =
      (lane_vec){ FLAG(0), FLAG(1), FLAG(2), FLAG(3), FLAG(4), FLAG(5), FLAG(6), FLAG(7) };
}
#define LANE_ALIGN _Alignas(sizeof(lane_vec))
#else
static inline void lane_row(double row[CL], const char *const base[CL], size_t off)
{
  for (int v = 0; v < CL; v++)
    row[v] = AT(v);
}
static inline void lane_flags(double row[CL], const char *const base[CL], size_t off)
{
  for (int v = 0; v < CL; v++)
    row[v] = FLAG(v);
}
#define LANE_ALIGN
#endif
#undef AT
#undef FLAG

void gc_contact3_step_lanes(gc_contact3_lanes *b, int n, double dt, int keep)
{
  LANE_ALIGN hm_lanes z;
  int src[CL], m = 0;
  for (int l = 0; l < n; l++) {
    const gc_law *law = b->law[l];
    gc_contact3 *ct = b->ct[l];
    if (!law->hertz_mindlin || !(b->alpha[l] > 0.0)) {
      b->status[l] =
          gc_contact3_step(law, ct, b->alpha[l], b->nvec[l], b->vrel[l], b->wrel[l], dt,
                           b->ds_roll[l], keep, b->F[l], b->M[l], &b->active[l], b->work[l]);
      continue;
    }
    first_touch(law, ct, gc_law_hist_normal(law, ct->h));
    src[m++] = l;
  }
  if (m == 0)
    return;
  /* the lanes beyond m repeat the first one's numbers and are not written back; each row of
   * z from the lanes' sources (lane_row) */
  const char *in_a[CL], *in_n[CL], *in_v[CL], *rec[CL], *hn[CL], *ts[CL], *pr[CL];
  for (int v = 0; v < CL; v++) {
    const int l = src[v < m ? v : 0];
    const gc_law *law = b->law[l];
    in_a[v] = (const char *)&b->alpha[l];
    in_n[v] = (const char *)b->nvec[l];
    in_v[v] = (const char *)b->vrel[l];
    rec[v] = (const char *)b->ct[l];
    hn[v] = (const char *)gc_law_hist_normal(law, b->ct[l]->h);
    ts[v] = (const char *)gc_law_hist_tangential(law, b->ct[l]->h);
    pr[v] = (const char *)&law->pair;
  }
  lane_row(z.r + GC_HM_ALPHA * CL, in_a, 0);
  for (int e = 0; e < 3; e++) {
    lane_row(z.r + (GC_HM_N0 + e) * CL, in_n, e * sizeof(double));
    lane_row(z.r + (GC_HM_VREL0 + e) * CL, in_v, e * sizeof(double));
    lane_row(z.r + (GC_HM_Q0 + e) * CL, rec, offsetof(gc_contact3, Q) + e * sizeof(double));
  }
  lane_row(z.r + GC_HM_R_STAR * CL, pr, offsetof(gc_pair, R_star));
  lane_row(z.r + GC_HM_K_HERTZ * CL, pr, offsetof(gc_pair, k_hertz));
  lane_row(z.r + GC_HM_E_STAR * CL, pr, offsetof(gc_pair, E_star));
  lane_row(z.r + GC_HM_KT0_C * CL, pr, offsetof(gc_pair, kt0_c));
  lane_row(z.r + GC_HM_TSUJI_C * CL, pr, offsetof(gc_pair, tsuji_c));
  lane_row(z.r + GC_HM_MU * CL, pr, offsetof(gc_pair, p) + offsetof(gc_params, mu));
  lane_flags(z.r + GC_HM_TENSION * CL, pr, offsetof(gc_pair, p) + offsetof(gc_params, tension));
  lane_row(z.r + GC_HM_P * CL, rec, offsetof(gc_contact3, P));
  lane_row(z.r + GC_HM_A * CL, rec, offsetof(gc_contact3, alpha));
  lane_row(z.r + GC_HM_P_MAX * CL, hn, offsetof(gc_hist_normal, P_max));
  lane_row(z.r + GC_HM_ALPHA_MAX * CL, hn, offsetof(gc_hist_normal, alpha_max));
  lane_row(z.r + GC_HM_TQ * CL, ts, offsetof(gc_hist_tangential, Q));
  lane_row(z.r + GC_HM_Q_STAR * CL, ts, offsetof(gc_hist_tangential, Q_star));
  lane_row(z.r + GC_HM_DELTA * CL, ts, offsetof(gc_hist_tangential, delta));
  lane_row(z.r + GC_HM_Q_DIR * CL, ts, offsetof(gc_hist_tangential, q_dir));
  lane_row(z.r + GC_HM_N_STEPS * CL, ts, offsetof(gc_hist_tangential, n_steps_t));
  hm_lanes_step(&z, dt);
  for (int v = 0; v < m; v++) {
    const int l = src[v];
    const gc_law *law = b->law[l];
    gc_contact3 *ct = b->ct[l];
    gc_hist_normal *hn = gc_law_hist_normal(law, ct->h);
    gc_hist_tangential *s = gc_law_hist_tangential(law, ct->h);
    hn->in_contact = 1.0;
    hn->alpha = z.r[GC_HM_ALPHA * CL + v];
    hn->P = z.r[GC_HM_P * CL + v];
    hn->P_max = z.r[GC_HM_P_MAX * CL + v];
    hn->alpha_max = z.r[GC_HM_ALPHA_MAX * CL + v];
    s->Q = z.r[GC_HM_TQ * CL + v];
    s->Q_star = z.r[GC_HM_Q_STAR * CL + v];
    s->delta = z.r[GC_HM_DELTA * CL + v];
    s->q_dir = z.r[GC_HM_Q_DIR * CL + v];
    s->sliding = z.r[GC_HM_SLIDING * CL + v];
    s->n_steps_t = z.r[GC_HM_N_STEPS * CL + v];
    ct->P = z.r[GC_HM_P * CL + v];
    ct->alpha = z.r[GC_HM_ALPHA * CL + v];
    for (int e = 0; e < 3; e++) {
      ct->Q[e] = z.r[(GC_HM_QN0 + e) * CL + v];
      b->F[l][e] = z.r[(GC_HM_F0 + e) * CL + v];
      b->M[l][e] = 0.0;
    }
    b->work[l][0] = z.r[GC_HM_WORK_N * CL + v];
    b->work[l][1] = z.r[GC_HM_WORK_T * CL + v];
    b->active[l] = z.r[GC_HM_ACTIVE * CL + v] != 0.0;
    b->status[l] = z.r[GC_HM_OK * CL + v] != 0.0 ? GC_SUCCESS : GC_ENAN;
  }
}
