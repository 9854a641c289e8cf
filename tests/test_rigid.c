/* test_rigid.c - quaternions, sphere-cluster shapes and the rotational predictor-corrector of
 * the seed's sec. 2.1-2.2 (eq. 2.12-2.28, fig. 2.3): closed forms of rigid-body mechanics and
 * of sphere geometry, conservation laws of the torque-free top. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "gc_model.h"
#include "gc_test.h"
#include "rigid.h"

static double dot3(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double norm3(const double a[3])
{
  return sqrt(dot3(a, a));
}

static double dist3(const double a[3], const double b[3])
{
  double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
  return norm3(d);
}

static double qnorm(const double q[4])
{
  return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

static void random_quat(gsl_rng *rng, double q[4])
{
  double u[3] = { gsl_rng_uniform(rng), gsl_rng_uniform(rng), gsl_rng_uniform(rng) };
  gc_quat_from_uniform(u, q);
}

/* ------------------------------------------------------------------------------------------ */
/* Quaternions */

/* For 1000 random unit quaternions and vectors: rotate_inv(rotate(v)) = v (1e-14 |v|, rounding
 * of a few dozen flops); the matrix of gc_quat_to_matrix is orthonormal with det +1 (1e-14) and
 * gives the same vector as gc_quat_rotate (1e-14); composition: R(a (x) b) v = R(a) R(b) v
 * (1e-14).  Closed form: q = (cos(th/2), 0, 0, sin(th/2)) turns e_x into (cos th, sin th, 0)
 * (1e-15). */
static void test_quat_algebra(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  CU_ASSERT_PTR_NOT_NULL_FATAL(rng);
  double worst_inv = 0, worst_orth = 0, worst_mat = 0, worst_comp = 0, worst_det = 0;
  for (int t = 0; t < 1000; t++) {
    double q[4], p[4], pq[4], v[3], a[3], b[3], c[3], d[3];
    random_quat(rng, q);
    random_quat(rng, p);
    for (int k = 0; k < 3; k++)
      v[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
    double nv = norm3(v);
    gc_quat_rotate(q, v, a);
    gc_quat_rotate_inv(q, a, b);
    worst_inv = fmax(worst_inv, dist3(b, v) / nv);
    double M[9];
    gc_quat_to_matrix(q, M);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double s = M[3 * i] * M[3 * j] + M[3 * i + 1] * M[3 * j + 1] + M[3 * i + 2] * M[3 * j + 2];
        worst_orth = fmax(worst_orth, fabs(s - (i == j)));
      }
    double det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                 M[2] * (M[3] * M[7] - M[4] * M[6]);
    worst_det = fmax(worst_det, fabs(det - 1.0));
    for (int i = 0; i < 3; i++)
      c[i] = M[3 * i] * v[0] + M[3 * i + 1] * v[1] + M[3 * i + 2] * v[2];
    worst_mat = fmax(worst_mat, dist3(c, a) / nv);
    gc_quat_mul(p, q, pq);
    gc_quat_rotate(pq, v, c);
    gc_quat_rotate(p, a, d);
    worst_comp = fmax(worst_comp, dist3(c, d) / nv);
  }
  gsl_rng_free(rng);
  CU_ASSERT(worst_inv < 1e-14);
  CU_ASSERT(worst_orth < 1e-14);
  CU_ASSERT(worst_det < 1e-14);
  CU_ASSERT(worst_mat < 1e-14);
  CU_ASSERT(worst_comp < 1e-14);

  const double th = 0.7, ex[3] = { 1, 0, 0 };
  double q[4] = { cos(0.5 * th), 0, 0, sin(0.5 * th) }, r[3];
  gc_quat_rotate(q, ex, r);
  CU_ASSERT_DOUBLE_EQUAL(r[0], cos(th), 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(r[1], sin(th), 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(r[2], 0.0, 1e-15);
  /* normalisation; a zero quaternion becomes the identity */
  double s[4] = { 2, 0, 0, 0 }, z[4] = { 0, 0, 0, 0 };
  gc_quat_normalize(s);
  gc_quat_normalize(z);
  CU_ASSERT_DOUBLE_EQUAL(s[0], 1.0, 1e-16);
  CU_ASSERT_DOUBLE_EQUAL(z[0], 1.0, 0);
  CU_ASSERT_DOUBLE_EQUAL(z[1] * z[1] + z[2] * z[2] + z[3] * z[3], 0.0, 0);
}

/* Shoemake's uniform rotations, 10^4 samples (mt19937, default seed): every quaternion is of
 * unit norm (1e-15); for a uniformly distributed rotation each column R e_j is uniform on the
 * unit sphere, so each component has mean 0 and variance 1/3: the sample mean must be within
 * 5 sigma = 5 sqrt(1/3 / 10^4) = 0.029 of 0, and the sample mean of its square within
 * 5 sqrt((1/5 - 1/9) / 10^4) = 0.015 of 1/3 (checked to fail when the square roots of
 * Shoemake's formula are dropped, which makes the distribution non-uniform). */
static void test_quat_uniform(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  CU_ASSERT_PTR_NOT_NULL_FATAL(rng);
  const int N = 10000;
  double mean[9] = { 0 }, sq[9] = { 0 }, worst_norm = 0;
  for (int t = 0; t < N; t++) {
    double q[4], M[9];
    random_quat(rng, q);
    worst_norm = fmax(worst_norm, fabs(qnorm(q) - 1.0));
    gc_quat_to_matrix(q, M);
    for (int k = 0; k < 9; k++) {
      mean[k] += M[k] / N;
      sq[k] += M[k] * M[k] / N;
    }
  }
  gsl_rng_free(rng);
  CU_ASSERT(worst_norm < 1e-15);
  for (int k = 0; k < 9; k++) {
    CU_ASSERT_DOUBLE_EQUAL(mean[k], 0.0, 5.0 * sqrt(1.0 / 3.0 / N));
    CU_ASSERT_DOUBLE_EQUAL(sq[k], 1.0 / 3.0, 5.0 * sqrt((1.0 / 5.0 - 1.0 / 9.0) / N));
  }
  /* R e_z is the third column of M: explicitly the brief's check */
  CU_ASSERT(sqrt(mean[2] * mean[2] + mean[5] * mean[5] + mean[8] * mean[8]) < 5.0 * sqrt(1.0 / N));
}

/* ------------------------------------------------------------------------------------------ */
/* Shapes */

/* One sphere: I = 2/5 m R^2 (exact formula, 1e-15), bound radius R; bad input refused with the
 * parameter named. */
static void test_shape_sphere(void)
{
  gc_shape s;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_sphere(2e-3, 1e-4, &s, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(s.nsph, 1);
  for (int k = 0; k < 3; k++)
    GC_ASSERT_REL(s.inertia[k], 0.4 * 1e-4 * 4e-6, 1e-15);
  CU_ASSERT_DOUBLE_EQUAL(s.bound_radius, 2e-3, 0);
  CU_ASSERT_EQUAL(gc_shape_sphere(0, 1e-4, &s, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "radius"));
  CU_ASSERT_EQUAL(gc_shape_sphere(1e-3, NAN, &s, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "mass"));
}

static void extents(const gc_shape *s, double ext[3])
{
  for (int k = 0; k < 3; k++) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s->nsph; i++) {
      lo = fmin(lo, s->pos[i][k] - s->radius[i]);
      hi = fmax(hi, s->pos[i][k] + s->radius[i]);
    }
    ext[k] = hi - lo;
  }
}

/* The seed's soybean (ch. 9: L, W, H = 7.3, 6.1, 5.5 mm, m = 0.149 g, R_c = H/2 =
 * 2.75 mm): the cluster's extents along x, y, z are L, W, H (to rounding, 4 DBL_EPSILON), the
 * sphere radius is H/2 exactly, the centre of mass is at the origin (exactly, by symmetry), the
 * moments are eq. 2.13 (1e-15) and the bound radius is L/2.  Bad input: each error message names
 * the parameter that is out of range. */
static void test_shape_ellipsoid4(void)
{
  const double L = 7.3e-3, W = 6.1e-3, H = 5.5e-3, m = 0.149e-3;
  gc_shape s;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_ellipsoid4(L, W, H, m, &s, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL(s.nsph, 4);
  double ext[3], com[3] = { 0, 0, 0 };
  extents(&s, ext);
  GC_ASSERT_REL(ext[0], L, 4 * DBL_EPSILON);
  GC_ASSERT_REL(ext[1], W, 4 * DBL_EPSILON);
  GC_ASSERT_REL(ext[2], H, 4 * DBL_EPSILON);
  for (size_t i = 0; i < 4; i++) {
    CU_ASSERT_DOUBLE_EQUAL(s.radius[i], 2.75e-3, 1e-18);
    for (int k = 0; k < 3; k++)
      com[k] += s.pos[i][k];
  }
  CU_ASSERT_DOUBLE_EQUAL(norm3(com), 0.0, 0);
  GC_ASSERT_REL(s.mass, m, 0);
  GC_ASSERT_REL(s.inertia[0], m * (W * W + H * H) / 20, 1e-15);
  GC_ASSERT_REL(s.inertia[1], m * (L * L + H * H) / 20, 1e-15);
  GC_ASSERT_REL(s.inertia[2], m * (L * L + W * W) / 20, 1e-15);
  GC_ASSERT_REL(s.bound_radius, 0.5 * L, 4 * DBL_EPSILON);

  /* degenerate but valid: a sphere (all four at the origin) */
  CU_ASSERT_EQUAL(gc_shape_ellipsoid4(H, H, H, m, &s, msg, sizeof msg), GC_SUCCESS);
  GC_ASSERT_REL(s.bound_radius, 0.5 * H, 0);

  struct {
    double L, W, H, m;
    const char *name;
  } bad[] = {
    { L, W, 0, m, "H =" },                               /* H <= 0 */
    { L, W, -H, m, "H =" },    { L, 5e-3, H, m, "W =" }, /* W < H */
    { 6e-3, W, H, m, "L =" },                            /* L < W */
    { NAN, W, H, m, "L =" },   { L, W, H, 0, "mass" },
    { 30e-3, W, H, m, "L =" }, /* spheres at x = +-12.25 mm do not touch the others */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    msg[0] = 0;
    CU_ASSERT_EQUAL(gc_shape_ellipsoid4(bad[i].L, bad[i].W, bad[i].H, bad[i].m, &s, msg,
                                        sizeof msg),
                    GC_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].name));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "range"));
  }
}

/* QMC tolerance of the cluster tests.  Only overlaps are sampled (the spheres are control
 * variates, rigid.h); with the default 2^18 Sobol points the measured relative errors of volume,
 * moments and centre (printed by each test) are <= 2e-4; allowed 1e-3. */
#define QMC_TOL 1e-3

/* One sphere of radius R at an arbitrary place: mass rho 4/3 pi R^3 and I = 2/5 m R^2 (closed
 * form, the control variate: 1e-12), centre moved to the origin (1e-12 R), bound radius R.  The
 * same sphere given twice, and with a smaller sphere inside it, is the same union: there the
 * overlap is sampled, QMC_TOL on the mass and moments and on |pos of the outer sphere| / R. */
static void test_cluster_one(void)
{
  const double R = 0.01, rho = 1200;
  const double p[2][3] = { { 0.3, -0.2, 0.1 }, { 0.3, -0.2, 0.1 } }, r[2] = { R, R };
  const double pin[2][3] = { { 0.3, -0.2, 0.1 }, { 0.303, -0.198, 0.101 } }, rin[2] = { R, 0.006 };
  gc_shape s;
  char msg[256] = "";
  double m = rho * 4.0 / 3.0 * M_PI * R * R * R;
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(1, p, r, rho, 0, &s, msg, sizeof msg), GC_SUCCESS);
  GC_ASSERT_REL(s.mass, m, 1e-12);
  for (int k = 0; k < 3; k++)
    GC_ASSERT_REL(s.inertia[k], 0.4 * m * R * R, 1e-12);
  CU_ASSERT(norm3(s.pos[0]) < 1e-12 * R);
  GC_ASSERT_REL(s.bound_radius, R, 1e-12);
  for (int t = 0; t < 2; t++) {
    CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(2, t ? pin : p, t ? rin : r, rho, 0, &s, msg,
                                           sizeof msg),
                          GC_SUCCESS);
    GC_ASSERT_REL(s.mass, m, QMC_TOL);
    for (int k = 0; k < 3; k++)
      GC_ASSERT_REL(s.inertia[k], 0.4 * m * R * R, QMC_TOL);
    CU_ASSERT(norm3(s.pos[0]) < QMC_TOL * R);
    printf("\n    %s, 2^18 points: rel. error mass %.1e, I %.1e %.1e %.1e, |pos|/R %.1e ",
           t ? "small sphere inside" : "same sphere twice", s.mass / m - 1,
           s.inertia[0] / (0.4 * m * R * R) - 1, s.inertia[1] / (0.4 * m * R * R) - 1,
           s.inertia[2] / (0.4 * m * R * R) - 1, norm3(s.pos[0]) / R);
  }
}

/* Two disjoint spheres R1 = 10 mm, R2 = 5 mm, centres d = 30 mm apart along (1,2,2)/3:
 * parallel-axis theorem, I_axial = 2/5 (m1 R1^2 + m2 R2^2), I_transverse = I_axial + mu d^2,
 * mu = m1 m2/(m1 + m2); the axis of the smallest moment is body x, the centres are at
 * x = -d m2/(m1+m2) and d m1/(m1+m2), y = z = 0, and their distance is d.  Disjoint spheres
 * have no overlap to sample, so all this holds to rounding: 1e-12 (relative, or of d), and
 * 1e-14 for the distance (the transformation is a rigid motion). */
static void test_cluster_two_disjoint(void)
{
  const double R1 = 0.01, R2 = 0.005, d = 0.03, rho = 1000;
  const double u[3] = { 1.0 / 3, 2.0 / 3, 2.0 / 3 }, o[3] = { -0.01, 0.02, 0.005 };
  double p[2][3], r[2] = { R1, R2 };
  for (int k = 0; k < 3; k++) {
    p[0][k] = o[k];
    p[1][k] = o[k] + d * u[k];
  }
  gc_shape s;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(2, (const double(*)[3])p, r, rho, 0, &s, msg, sizeof msg),
                        GC_SUCCESS);
  double m1 = rho * 4.0 / 3.0 * M_PI * pow(R1, 3), m2 = rho * 4.0 / 3.0 * M_PI * pow(R2, 3);
  double Ia = 0.4 * (m1 * R1 * R1 + m2 * R2 * R2), It = Ia + m1 * m2 / (m1 + m2) * d * d;
  GC_ASSERT_REL(s.mass, m1 + m2, 1e-12);
  GC_ASSERT_REL(s.inertia[0], Ia, 1e-12);
  GC_ASSERT_REL(s.inertia[1], It, 1e-12);
  GC_ASSERT_REL(s.inertia[2], It, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(fabs(s.pos[0][0]), d * m2 / (m1 + m2), 1e-12 * d);
  CU_ASSERT_DOUBLE_EQUAL(fabs(s.pos[1][0]), d * m1 / (m1 + m2), 1e-12 * d);
  CU_ASSERT(s.pos[0][0] * s.pos[1][0] < 0);
  for (int i = 0; i < 2; i++)
    CU_ASSERT(hypot(s.pos[i][1], s.pos[i][2]) < 1e-12 * d);
  GC_ASSERT_REL(dist3(s.pos[0], s.pos[1]), d, 1e-14);
  printf("\n    two disjoint spheres: rel. error mass %.1e, I %.1e %.1e %.1e, x1 %.1e ",
         s.mass / (m1 + m2) - 1, s.inertia[0] / Ia - 1, s.inertia[1] / It - 1,
         s.inertia[2] / It - 1, fabs(s.pos[0][0]) / (d * m2 / (m1 + m2)) - 1);
}

/* Slices z in [a, b] of a ball of radius R centred at z = 0, cross-section area pi (R^2 - z^2):
 * k = 0, 1, 2: int z^k (R^2 - z^2) dz; k = 3: int (R^2 - z^2)^2 dz. */
static double slab(double R, double a, double b, int k)
{
  double R2 = R * R, F[2];
  for (int i = 0; i < 2; i++) {
    double z = i ? b : a;
    F[i] = k == 0   ? R2 * z - z * z * z / 3
           : k == 1 ? R2 * z * z / 2 - pow(z, 4) / 4
           : k == 2 ? R2 * pow(z, 3) / 3 - pow(z, 5) / 5
                    : R2 * R2 * z - 2 * R2 * pow(z, 3) / 3 + pow(z, 5) / 5;
  }
  return F[1] - F[0];
}

/* Two overlapping spheres R1 = 10 mm at z = 0 and R2 = 8 mm at z = d = 8 mm: the overlap is
 * counted once.  The union is a solid of revolution cut at the plane z* = (d^2 + R1^2 - R2^2)/(2d)
 * where the two surfaces meet: below z* sphere 1's slices, above sphere 2's, so the volume
 * V = pi int r^2 dz, the centre z_c = pi int z r^2 dz / V, the axial moment
 * rho pi/2 int r^4 dz and the transverse one rho pi int (r^4/4 + r^2 (z - z_c)^2) dz are
 * polynomial integrals (slab()).  The volume also equals V1 + V2 - V_lens with
 * V_lens = pi (R1 + R2 - d)^2 (d^2 + 2 d R2 - 3 R2^2 + 2 d R1 + 6 R1 R2 - 3 R1^2) / (12 d)
 * (sphere-sphere intersection, Weisstein, MathWorld; 1e-12 between the two closed forms).
 * QMC result: mass, both moments and the sphere-1 centre's distance from the centre of mass
 * within QMC_TOL; the symmetry axis is body x (smallest moment), y, z of the centres ~ 0. */
static void test_cluster_two_overlapping(void)
{
  const double R1 = 0.01, R2 = 0.008, d = 0.008, rho = 1000;
  const double p[2][3] = { { 0, 0, 0 }, { 0, 0, d } }, r[2] = { R1, R2 };
  gc_shape s;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(2, p, r, rho, 0, &s, msg, sizeof msg), GC_SUCCESS);
  double lens = M_PI * pow(R1 + R2 - d, 2) *
                (d * d + 2 * d * R2 - 3 * R2 * R2 + 2 * d * R1 + 6 * R1 * R2 - 3 * R1 * R1) /
                (12 * d);
  double zs = (d * d + R1 * R1 - R2 * R2) / (2 * d), a2 = zs - d; /* cut, in sphere 2's frame */
  double A0 = slab(R1, -R1, zs, 0) + slab(R2, a2, R2, 0);
  double A1 = slab(R1, -R1, zs, 1) + slab(R2, a2, R2, 1) + d * slab(R2, a2, R2, 0);
  double A2 = slab(R1, -R1, zs, 2) + slab(R2, a2, R2, 2) + 2 * d * slab(R2, a2, R2, 1) +
              d * d * slab(R2, a2, R2, 0);
  double B = slab(R1, -R1, zs, 3) + slab(R2, a2, R2, 3);
  double V = M_PI * A0, zc = M_PI * A1 / V, m = rho * V;
  double Iax = rho * M_PI / 2 * B, Itr = rho * M_PI * (B / 4 + A2) - m * zc * zc;
  GC_ASSERT_REL(V, 4.0 / 3.0 * M_PI * (pow(R1, 3) + pow(R2, 3)) - lens, 1e-12);
  GC_ASSERT_REL(s.mass, m, QMC_TOL);
  GC_ASSERT_REL(s.inertia[0], Iax, QMC_TOL);
  GC_ASSERT_REL(s.inertia[1], Itr, QMC_TOL);
  GC_ASSERT_REL(s.inertia[2], Itr, QMC_TOL);
  GC_ASSERT_REL(fabs(s.pos[0][0]), zc, QMC_TOL);
  CU_ASSERT(s.pos[0][0] * s.pos[1][0] < 0);
  for (int i = 0; i < 2; i++)
    CU_ASSERT(hypot(s.pos[i][1], s.pos[i][2]) < QMC_TOL * d);
  /* the sum of the two spheres' volumes is 21 % more: the test tells the union from the sum */
  CU_ASSERT(rho * (V + lens) / s.mass - 1 > 0.15);
  printf("\n    overlapping spheres: rel. error mass %.1e, I %.1e %.1e %.1e, centre %.1e ",
         s.mass / m - 1, s.inertia[0] / Iax - 1, s.inertia[1] / Itr - 1, s.inertia[2] / Itr - 1,
         fabs(s.pos[0][0]) / zc - 1);
}

static double triple(const double a[3], const double b[3], const double c[3], const double o[3])
{
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; k++)
    u[k] = a[k] - o[k], v[k] = b[k] - o[k], w[k] = c[k] - o[k];
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/* An asymmetric (chiral) cluster of four spheres: the mapping to principal axes is a proper
 * rigid motion, i.e. all centre distances are kept (1e-14 relative) and the sign of the triple
 * product of the centres is kept (a reflection, a left-handed principal frame, flips it); the
 * moments are in ascending order.  Building the cluster again from its own body-frame
 * description finds the same moments (QMC_TOL: new bounding box, new points) and the identity
 * rotation: the centres move by < 1e-3 of the cluster size (QMC noise in the axes), which
 * checks that the frame is principal and that the sign convention is stable. */
static void test_cluster_frame(void)
{
  const double p[4][3] = {
    { 0, 0, 0 }, { 0.02, 0.001, 0 }, { 0.002, 0.015, 0 }, { 0, 0.003, 0.01 }
  };
  const double r[4] = { 0.006, 0.005, 0.004, 0.007 };
  gc_shape s, s2;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(4, p, r, 1000, 0, &s, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT(s.inertia[0] <= s.inertia[1] && s.inertia[1] <= s.inertia[2]);
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++)
      GC_ASSERT_REL(dist3(s.pos[i], s.pos[j]), dist3(p[i], p[j]), 1e-14);
  double t0 = triple(p[1], p[2], p[3], p[0]), t1 = triple(s.pos[1], s.pos[2], s.pos[3], s.pos[0]);
  CU_ASSERT(t0 * t1 > 0);
  GC_ASSERT_REL(t1, t0, 1e-12);
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(4, (const double(*)[3])s.pos, s.radius, 1000, 0, &s2, msg,
                                         sizeof msg),
                        GC_SUCCESS);
  double worst = 0;
  for (int k = 0; k < 3; k++)
    GC_ASSERT_REL(s2.inertia[k], s.inertia[k], QMC_TOL);
  for (int i = 0; i < 4; i++)
    worst = fmax(worst, dist3(s2.pos[i], s.pos[i]));
  CU_ASSERT(worst < 1e-3 * s.bound_radius);
  printf("\n    chiral cluster rebuilt in its own frame: centres moved by %.1e of its size ",
         worst / s.bound_radius);
  /* bad input */
  const double bad_r[1] = { -1 };
  CU_ASSERT_EQUAL(gc_shape_cluster(1, p, bad_r, 1000, 0, &s, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "radius"));
  CU_ASSERT_EQUAL(gc_shape_cluster(0, p, r, 1000, 0, &s, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_EQUAL(gc_shape_cluster(GC_SHAPE_MAX_SPHERES + 1, p, r, 1000, 0, &s, msg, sizeof msg),
                  GC_EINVAL);
  CU_ASSERT_EQUAL(gc_shape_cluster(1, p, r, 0, 0, &s, msg, sizeof msg), GC_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rho"));
}

/* The seed's soybean cluster (four spheres R = 2.75 mm at x = +-0.9 mm, y = +-0.3 mm: heavy
 * overlaps, half the summed sphere volume is overlap correction): mass and moments with the
 * default 2^18 points agree with 2^21 points within QMC_TOL (measured differences <= 1.7e-4,
 * printed).  The cluster
 * is symmetric about its x-z and y-z planes, so the body frame is the input frame: the centre
 * of mass is at the origin and the sphere centres keep their coordinates (1e-3 R; the moment
 * about the long axis x is the smallest). */
static void test_cluster_soybean(void)
{
  const double a = 0.9e-3, b = 0.3e-3, R = 2.75e-3;
  const double p[4][3] = { { a, 0, 0 }, { -a, 0, 0 }, { 0, b, 0 }, { 0, -b, 0 } };
  const double r[4] = { R, R, R, R };
  gc_shape s, f;
  char msg[256] = "";
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(4, p, r, 1000, 0, &s, msg, sizeof msg), GC_SUCCESS);
  CU_ASSERT_EQUAL_FATAL(gc_shape_cluster(4, p, r, 1000, 1ul << 21, &f, msg, sizeof msg),
                        GC_SUCCESS);
  GC_ASSERT_REL(s.mass, f.mass, QMC_TOL);
  for (int k = 0; k < 3; k++)
    GC_ASSERT_REL(s.inertia[k], f.inertia[k], QMC_TOL);
  CU_ASSERT(s.inertia[0] < s.inertia[1] && s.inertia[1] < s.inertia[2]);
  for (int i = 0; i < 4; i++)
    CU_ASSERT(dist3(s.pos[i], p[i]) < 1e-3 * R);
  /* sanity: the union is less than the sum of the four spheres and more than one sphere */
  double V1 = 4.0 / 3.0 * M_PI * R * R * R;
  CU_ASSERT(s.mass / 1000 > V1 && s.mass / 1000 < 4 * V1);
  printf("\n    soybean cluster, 2^18 vs 2^21 points: mass %.1e, I %.1e %.1e %.1e; m = %.4g g, "
         "I/(m R^2) = %.4f %.4f %.4f ",
         s.mass / f.mass - 1, s.inertia[0] / f.inertia[0] - 1, s.inertia[1] / f.inertia[1] - 1,
         s.inertia[2] / f.inertia[2] - 1, 1e3 * f.mass, f.inertia[0] / (f.mass * R * R),
         f.inertia[1] / (f.mass * R * R), f.inertia[2] / (f.mass * R * R));
}

/* gc_shape_read: a good file (comment line, the seed's soybean cluster of gc_shape_ellipsoid4)
 * is read; a bad one is refused with file:line:column of the offending field. */
static void read_fails(const char *text, const char *where)
{
  char *path = gc_test_write_tmp(text);
  gc_shape s;
  char msg[512] = "", want[600];
  CU_ASSERT_NOT_EQUAL(gc_shape_read(path, 1000, &s, msg, sizeof msg), GC_SUCCESS);
  snprintf(want, sizeof want, "%s:%s", path, where);
  if (!strstr(msg, want))
    fprintf(stderr, "\n  message '%s' lacks '%s'\n", msg, want);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
  remove(path);
  free(path);
}

static void test_shape_read(void)
{
  char *path = gc_test_write_tmp("# soybean, sec. 2.2\nx [m],y [m],z [m],r [m]\n"
                                 "0.9e-3,0,0,2.75e-3\n-0.9e-3,0,0,2.75e-3\n"
                                 "0,0.3e-3,0,2.75e-3\n0,-0.3e-3,0,2.75e-3\n");
  gc_shape s;
  char msg[512] = "";
  int st = gc_shape_read(path, 1000, &s, msg, sizeof msg);
  remove(path);
  free(path);
  if (st)
    fprintf(stderr, "\n  %s\n", msg);
  CU_ASSERT_EQUAL_FATAL(st, GC_SUCCESS);
  CU_ASSERT_EQUAL(s.nsph, 4);
  /* extent along body x (smallest moment) is L = 7.3 mm (QMC noise in the axes: 1e-3) */
  double ext[3];
  extents(&s, ext);
  GC_ASSERT_REL(ext[0], 7.3e-3, 1e-3);

  read_fails("x [m],y [m],z [m],r [m]\n0,0,0,1e-3\n1e-3,0,0,-1e-3\n", "3:4:");
  read_fails("x [m],y [m],z [m],r [m]\n0,0,0,1e-3\n1e-3,zero,0,1e-3\n", "3:2:");
  read_fails("x [m],y [m],r [m]\n0,0,1e-3\n", "1:1:");
  read_fails("x [m],y [m],z [mm],r [m]\n0,0,0,1\n", "1:3:");
  read_fails("x [m],y [m],z [m],r [m],w\n0,0,0,1e-3,1\n", "1:5:");
  char big[2048] = "# too many\nx [m],y [m],z [m],r [m]\n";
  for (int i = 0; i <= GC_SHAPE_MAX_SPHERES; i++)
    snprintf(big + strlen(big), sizeof big - strlen(big), "%de-3,0,0,1e-3\n", i);
  read_fails(big, "19:1:");
}

/* ------------------------------------------------------------------------------------------ */
/* Rotation: predictor-corrector (eq. 2.14-2.20) and quaternion update (eq. 2.24-2.28) */

static double kinetic(const double I[3], const double w[3])
{
  return 0.5 * (I[0] * w[0] * w[0] + I[1] * w[1] * w[1] + I[2] * w[2] * w[2]);
}

/* Space-frame angular momentum of the state after a step, both at t_{n+1/2}: omega_{n+1/2} with
 * the mid-step orientation q_{n+1/2} = (q_n + q_{n+1})/|q_n + q_{n+1}| (the rotation by half the
 * Cayley step). */
static void momentum(const double I[3], const double qold[4], const gc_rot *r, double L[3])
{
  double qm[4], b[3] = { I[0] * r->w[0], I[1] * r->w[1], I[2] * r->w[2] };
  for (int k = 0; k < 4; k++)
    qm[k] = qold[k] + r->q[k];
  gc_quat_normalize(qm);
  gc_quat_rotate(qm, b, L);
}

/* Torque-free asymmetric top, I = (1, 2, 3) kg m^2, omega_0 = (1, 0.5, 2) rad/s (a general
 * state, |omega| dt = 2.3e-3), dt = 1e-3 s, 10^5 steps (t = 100 s, about 40 revolutions):
 * kinetic energy from omega_{n+1/2} within 1e-6 of its initial value (measured 1.7e-7: an
 * O(dt^2) oscillation plus a slow drift, the scheme is not symplectic - the seed's remark 2.4),
 * space-frame angular momentum within 5e-6 |L| (measured 1.0e-6), |q| = 1 within 1e-12
 * (measured 2e-16). */
static void test_rot_free_top(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0, 0, 0 }, w0[3] = { 1, 0.5, 2 }, dt = 1e-3;
  double q0[4];
  gc_quat_identity(q0);
  gc_rot r;
  gc_rot_init(I, M, dt, q0, w0, &r);
  double E0 = kinetic(I, w0), L0[3], b0[3] = { I[0] * w0[0], I[1] * w0[1], I[2] * w0[2] };
  gc_quat_rotate(q0, b0, L0);
  double dE = 0, dL = 0, dq = 0;
  for (long n = 0; n < 100000; n++) {
    double qold[4] = { r.q[0], r.q[1], r.q[2], r.q[3] }, L[3];
    gc_rot_step(I, M, dt, &r);
    momentum(I, qold, &r, L);
    dE = fmax(dE, fabs(kinetic(I, r.w) / E0 - 1));
    dL = fmax(dL, dist3(L, L0) / norm3(L0));
    dq = fmax(dq, fabs(qnorm(r.q) - 1));
  }
  CU_ASSERT(dE < 1e-6);
  CU_ASSERT(dL < 5e-6);
  CU_ASSERT(dq < 1e-12);
  /* the body has turned a lot: the test is not trivially passed by a frozen orientation */
  CU_ASSERT(fabs(r.q[0]) < 0.999);
  printf("\n    free top, 1e5 steps: max rel. error energy %.1e, momentum %.1e, |q|-1 %.1e ", dE,
         dL, dq);
}

/* Order of accuracy: the same top to t = 1 s with dt = 1e-2, 5e-3, 2.5e-3 against dt = 1e-5:
 * the orientation error falls by 4 (3.5 to 4.5) per halving of dt - second order, as a
 * leap-frog with a second-order mid-point omega_n (eq. 2.17) must be.  (Measured ratios 3.98.) */
static void test_rot_order(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0, 0, 0 }, w0[3] = { 1, 0.5, 2 };
  const double dts[4] = { 1e-5, 1e-2, 5e-3, 2.5e-3 };
  double qref[4], err[4] = { 0 };
  for (int t = 0; t < 4; t++) {
    double q0[4];
    gc_quat_identity(q0);
    gc_rot r;
    gc_rot_init(I, M, dts[t], q0, w0, &r);
    long N = lround(1.0 / dts[t]);
    for (long n = 0; n < N; n++)
      gc_rot_step(I, M, dts[t], &r);
    if (t == 0)
      memcpy(qref, r.q, sizeof qref);
    else {
      double d[4];
      for (int k = 0; k < 4; k++)
        d[k] = r.q[k] - qref[k];
      err[t] = qnorm(d);
    }
  }
  double r1 = err[1] / err[2], r2 = err[2] / err[3];
  CU_ASSERT(r1 > 3.5 && r1 < 4.5);
  CU_ASSERT(r2 > 3.5 && r2 < 4.5);
  CU_ASSERT(err[1] < 1e-4);
  printf("\n    orientation errors at t = 1 s: %.2e %.2e %.2e (ratios %.2f %.2f) ", err[1], err[2],
         err[3], r1, r2);
}

/* Torque-free spin about a principal axis is a steady state of Euler's equations: omega stays
 * (0, 0, 5) rad/s exactly (all products in eq. 2.16/2.19 are zero), q stays a rotation about z
 * (q1 = q2 = 0 exactly), and the turned angle agrees with omega t: the Cayley step turns by
 * 4 atan(omega dt/4) = omega dt - (omega dt)^3/48 + ..., so after N steps the error is at most
 * N (omega dt)^3/48 = 2.6e-5 rad here (dt = 1e-3, N = 10^4), checked to 3e-5.  The same for the
 * minor axis x.  A slightly perturbed spin about the major axis (omega = (0.01, 0.01, 5)) is
 * stable: the body z axis stays within 0.2 deg of L. */
static void test_rot_principal_spin(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0, 0, 0 }, dt = 1e-3, om = 5;
  const long N = 10000;
  for (int ax = 0; ax < 3; ax += 2) {
    double q0[4], w0[3] = { 0, 0, 0 };
    w0[ax] = om;
    gc_quat_identity(q0);
    gc_rot r;
    gc_rot_init(I, M, dt, q0, w0, &r);
    int exact = 1;
    for (long n = 0; n < N; n++) {
      gc_rot_step(I, M, dt, &r);
      for (int k = 0; k < 3; k++)
        exact &= r.w[k] == w0[k];
      for (int k = 0; k < 3; k++)
        if (k != ax)
          exact &= r.q[1 + k] == 0.0;
    }
    CU_ASSERT(exact);
    double th = om * dt * N, want[4] = { cos(0.5 * th), 0, 0, 0 }, d[4];
    want[1 + ax] = sin(0.5 * th);
    for (int k = 0; k < 4; k++)
      d[k] = r.q[k] - want[k];
    CU_ASSERT(2.0 * qnorm(d) < 3e-5);
    CU_ASSERT(2.0 * qnorm(d) < 1.2 * N * pow(om * dt, 3) / 48);
  }
  const double w0[3] = { 0.01, 0.01, 5 }, ez[3] = { 0, 0, 1 };
  double q0[4];
  gc_quat_identity(q0);
  gc_rot r;
  gc_rot_init(I, M, dt, q0, w0, &r);
  double L0[3] = { I[0] * w0[0], I[1] * w0[1], I[2] * w0[2] }, minc = 1;
  for (long n = 0; n < 20000; n++) {
    gc_rot_step(I, M, dt, &r);
    double z[3];
    gc_quat_rotate(r.q, ez, z);
    minc = fmin(minc, dot3(z, L0) / norm3(L0));
  }
  CU_ASSERT(minc > cos(0.2 * M_PI / 180));
}

/* Constant torque M about principal axis z from rest (I = (1, 2, 3), M = 0.5 N m): Euler's
 * equations give omega = M t / I, linear, so the leap-frog is exact: omega_{n+1/2} =
 * M t_{n+1/2} / I_z to rounding (1e-12 relative) and omega_x = omega_y = 0 exactly; the angle
 * turned at T = 4 s is M T^2 / (2 I_z) with an O(dt^2) error from the Cayley step only (error
 * < 1e-5 rad at dt = 1e-2, measured ~1e-6, and falls by 4 +- 0.5 when dt is halved). */
static void test_rot_constant_torque(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0, 0, 0.5 }, T = 4.0, zero[3] = { 0, 0, 0 };
  double err[2];
  for (int t = 0; t < 2; t++) {
    double dt = t ? 5e-3 : 1e-2, q0[4];
    gc_quat_identity(q0);
    gc_rot r;
    gc_rot_init(I, M, dt, q0, zero, &r);
    long N = lround(T / dt);
    double worst = 0;
    int xy0 = 1;
    for (long n = 0; n < N; n++) {
      gc_rot_step(I, M, dt, &r);
      double want = M[2] * (n + 0.5) * dt / I[2];
      worst = fmax(worst, fabs(r.w[2] / want - 1));
      xy0 &= r.w[0] == 0 && r.w[1] == 0 && r.q[1] == 0 && r.q[2] == 0;
    }
    CU_ASSERT(worst < 1e-12);
    CU_ASSERT(xy0);
    double angle = 2.0 * atan2(r.q[3], r.q[0]), want = M[2] * T * T / (2 * I[2]);
    err[t] = fabs(angle - want);
    CU_ASSERT(err[t] < 1e-5);
    printf("\n    constant torque, dt = %g: omega rel. error %.1e, angle error %.2e rad ", dt,
           worst, err[t]);
  }
  CU_ASSERT(err[0] / err[1] > 3.5 && err[0] / err[1] < 4.5);
  /* without gc_rot_init (w = 0 at t_{-1/2}) the angle is off by O(dt): the init matters */
  gc_rot r = { .q = { 1, 0, 0, 0 }, .w = { 0, 0, 0 }, .dw = { 0, 0, 0 } };
  for (long n = 0; n < 400; n++)
    gc_rot_step(I, M, 1e-2, &r);
  CU_ASSERT(fabs(2.0 * atan2(r.q[3], r.q[0]) - 0.5 * 16 / 6) > 1e-3);
}

/* Intermediate-axis theorem (tennis racket, Dzhanibekov effect): spin about the intermediate
 * axis y (I = (1, 2, 3), omega = (1e-3, 2, 1e-3) rad/s) is unstable; the body y axis turns over,
 * its component along L going from +1 to below -0.99 within 20 s (growth rate
 * omega sqrt((I2-I1)(I3-I2)/(I1 I3)) = 1.15 1/s), while L stays constant (2e-5 relative,
 * dt = 1e-3 s).  The same perturbation of a spin about the major axis z does not flip (body z
 * stays above 0.99 along L): the test tells the two apart. */
static void test_rot_tennis_racket(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0, 0, 0 }, dt = 1e-3;
  for (int ax = 1; ax < 3; ax++) {
    double w0[3] = { 1e-3, 1e-3, 1e-3 }, q0[4], e[3] = { 0, 0, 0 };
    w0[ax] = 2.0;
    e[ax] = 1;
    gc_quat_identity(q0);
    gc_rot r;
    gc_rot_init(I, M, dt, q0, w0, &r);
    double L0[3] = { I[0] * w0[0], I[1] * w0[1], I[2] * w0[2] }, nL = norm3(L0);
    double minc = 1, dL = 0;
    int flips = 0;
    double prev = 1;
    for (long n = 0; n < 20000; n++) {
      double qold[4] = { r.q[0], r.q[1], r.q[2], r.q[3] }, L[3], b[3];
      gc_rot_step(I, M, dt, &r);
      momentum(I, qold, &r, L);
      dL = fmax(dL, dist3(L, L0) / nL);
      gc_quat_rotate(r.q, e, b);
      double c = dot3(b, L0) / nL;
      minc = fmin(minc, c);
      flips += (c < 0) != (prev < 0);
      prev = c;
    }
    CU_ASSERT(dL < 2e-5);
    if (ax == 1) {
      CU_ASSERT(minc < -0.99);
      CU_ASSERT(flips >= 1);
      printf("\n    tennis racket: body y along L down to %.4f, %d sign changes, |dL|/|L| %.1e ",
             minc, flips, dL);
    } else {
      CU_ASSERT(minc > 0.99);
      CU_ASSERT(flips == 0);
    }
  }
}

/* gc_rot_omega_space is R(q) w (1e-15, same flops in another order); gc_rot_init puts w at
 * t_{-1/2} so that the first predictor (2.14) returns omega_0 (1e-15). */
static void test_rot_misc(void)
{
  const double I[3] = { 1, 2, 3 }, M[3] = { 0.1, -0.2, 0.3 }, w0[3] = { 1, 0.5, 2 };
  double q[4] = { 0.5, 0.5, -0.5, 0.5 }, ws[3], Mx[9];
  gc_rot r;
  gc_rot_init(I, M, 1e-2, q, w0, &r);
  for (int k = 0; k < 3; k++)
    CU_ASSERT_DOUBLE_EQUAL(r.w[k] + 0.5 * r.dw[k], w0[k], 1e-15);
  CU_ASSERT(fabs(r.w[0] - w0[0]) > 1e-4);
  gc_rot_omega_space(&r, ws);
  gc_quat_to_matrix(r.q, Mx);
  for (int i = 0; i < 3; i++)
    CU_ASSERT_DOUBLE_EQUAL(ws[i],
                           Mx[3 * i] * r.w[0] + Mx[3 * i + 1] * r.w[1] + Mx[3 * i + 2] * r.w[2],
                           1e-15);
}

int gc_test_add_rigid(void)
{
  CU_pSuite s = CU_add_suite("rigid clusters and rotation (sec. 2.1-2.2)", NULL, NULL);
  if (!s)
    return CU_get_error();
  if (!CU_add_test(s, "quaternion algebra", test_quat_algebra) ||
      !CU_add_test(s, "uniform random rotations (Shoemake)", test_quat_uniform) ||
      !CU_add_test(s, "single sphere shape", test_shape_sphere) ||
      !CU_add_test(s, "four-sphere ellipsoid, eq. 2.13", test_shape_ellipsoid4) ||
      !CU_add_test(s, "cluster: one sphere", test_cluster_one) ||
      !CU_add_test(s, "cluster: two disjoint spheres, parallel axes", test_cluster_two_disjoint) ||
      !CU_add_test(s, "cluster: overlapping spheres, lens volume", test_cluster_two_overlapping) ||
      !CU_add_test(s, "cluster: right-handed principal frame", test_cluster_frame) ||
      !CU_add_test(s, "cluster: soybean, QMC convergence", test_cluster_soybean) ||
      !CU_add_test(s, "cluster file errors", test_shape_read) ||
      !CU_add_test(s, "torque-free top: energy and momentum", test_rot_free_top) ||
      !CU_add_test(s, "rotation: second order", test_rot_order) ||
      !CU_add_test(s, "spin about a principal axis", test_rot_principal_spin) ||
      !CU_add_test(s, "constant torque from rest", test_rot_constant_torque) ||
      !CU_add_test(s, "intermediate-axis flip", test_rot_tennis_racket) ||
      !CU_add_test(s, "omega in space axes, init", test_rot_misc))
    return CU_get_error();
  return CUE_SUCCESS;
}
