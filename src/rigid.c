/* rigid.c - quaternions, sphere-cluster mass properties and the rotational predictor-corrector
 * of the seed's sec. 2.1-2.2 (eq. 2.12-2.28, fig. 2.3).  See rigid.h for the conventions. */
#include "rigid.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_qrng.h>

#include "gc_io.h"
#include "gc_model.h"

/* ---------------------------------------------------------------------------------------------
 * Quaternions: q = (q0, q1, q2, q3) = (cos(phi/2), sin(phi/2) n), v_space = q (0, v_body) q*. */

void gc_quat_identity(double q[4])
{
  q[0] = 1.0;
  q[1] = q[2] = q[3] = 0.0;
}

void gc_quat_normalize(double q[4])
{
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0) || !isfinite(n)) {
    gc_quat_identity(q);
    return;
  }
  for (int k = 0; k < 4; k++)
    q[k] /= n;
}

void gc_quat_mul(const double a[4], const double b[4], double c[4])
{
  double c0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double c1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double c2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double c3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  c[0] = c0, c[1] = c1, c[2] = c2, c[3] = c3;
}

/* gc_quat_to_matrix, gc_quat_rotate and gc_quat_rotate_inv are inline in rigid.h. */

/* K. Shoemake, Uniform random rotations, Graphics Gems III (1992) 124-132: with
 * r1 = sqrt(1 - u0), r2 = sqrt(u0), t1 = 2 pi u1, t2 = 2 pi u2, the quaternion
 * (r1 sin t1, r1 cos t1, r2 sin t2, r2 cos t2) is uniform on S^3 (Haar measure on SO(3));
 * the order of the components does not matter for the distribution. */
void gc_quat_from_uniform(const double u[3], double q[4])
{
  double r1 = sqrt(1.0 - u[0]), r2 = sqrt(u[0]);
  double t1 = 2.0 * M_PI * u[1], t2 = 2.0 * M_PI * u[2];
  q[0] = r2 * cos(t2);
  q[1] = r1 * sin(t1);
  q[2] = r1 * cos(t1);
  q[3] = r2 * sin(t2);
}

/* ---------------------------------------------------------------------------------------------
 * Shapes */

static void finish_bound(gc_shape *s)
{
  double b = 0;
  for (size_t i = 0; i < s->nsph; i++) {
    const double *p = s->pos[i];
    double d = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) + s->radius[i];
    if (d > b)
      b = d;
  }
  s->bound_radius = b;
}

static int positive(double v)
{
  return v > 0 && isfinite(v);
}

int gc_shape_sphere(double radius, double mass, gc_shape *s, char *msg, size_t msglen)
{
  if (!positive(radius)) {
    snprintf(msg, msglen, "sphere radius = %g m out of range (0, inf)", radius);
    return GC_EINVAL;
  }
  if (!positive(mass)) {
    snprintf(msg, msglen, "sphere mass = %g kg out of range (0, inf)", mass);
    return GC_EINVAL;
  }
  memset(s, 0, sizeof *s);
  s->nsph = 1;
  s->radius[0] = radius;
  s->mass = mass;
  s->inertia[0] = s->inertia[1] = s->inertia[2] = 0.4 * mass * radius * radius;
  s->bound_radius = radius;
  return GC_SUCCESS;
}

int gc_shape_ellipsoid4(double L, double W, double H, double mass, gc_shape *s, char *msg,
                        size_t msglen)
{
  if (!positive(H)) {
    snprintf(msg, msglen, "ellipsoid height H = %g m out of range (0, W]", H);
    return GC_EINVAL;
  }
  if (!(W >= H) || !isfinite(W)) {
    snprintf(msg, msglen, "ellipsoid width W = %g m out of range [H, L] = [%g, %g] m", W, H, L);
    return GC_EINVAL;
  }
  if (!(L >= W) || !isfinite(L)) {
    snprintf(msg, msglen, "ellipsoid length L = %g m out of range [W, inf) = [%g, inf) m", L, W);
    return GC_EINVAL;
  }
  if (!positive(mass)) {
    snprintf(msg, msglen, "ellipsoid mass = %g kg out of range (0, inf)", mass);
    return GC_EINVAL;
  }
  const double R = 0.5 * H, a = 0.5 * L - R, b = 0.5 * W - R;
  /* neighbouring spheres (a,0,0) and (0,b,0) must touch (distance <= 2R = H) so that the
   * cluster is one body: (L - H)^2 + (W - H)^2 <= 4 H^2 */
  if (a * a + b * b > H * H) {
    double Lmax = H + sqrt(4.0 * H * H - (W - H) * (W - H));
    snprintf(msg, msglen,
             "ellipsoid length L = %g m out of range [W, %g] m: with W = %g m and H = %g m the "
             "four spheres must touch, (L - H)^2 + (W - H)^2 <= 4 H^2",
             L, Lmax, W, H);
    return GC_EINVAL;
  }
  memset(s, 0, sizeof *s);
  s->nsph = 4;
  const double p[4][3] = { { a, 0, 0 }, { -a, 0, 0 }, { 0, b, 0 }, { 0, -b, 0 } };
  for (int i = 0; i < 4; i++) {
    memcpy(s->pos[i], p[i], sizeof p[i]);
    s->radius[i] = R;
  }
  s->mass = mass;
  s->inertia[0] = mass * (W * W + H * H) / 20.0; /* eq. 2.13 */
  s->inertia[1] = mass * (L * L + H * H) / 20.0;
  s->inertia[2] = mass * (L * L + W * W) / 20.0;
  finish_bound(s);
  return GC_SUCCESS;
}

#define GC_SHAPE_DEFAULT_SAMPLES (1ul << 18)

/* The arguments of gc_shape_cluster checked (*n_samples 0 becomes the default), and the
 * bounding box lo, hi of the spheres [m]. */
static int check_cluster(size_t n, const double (*pos)[3], const double *radius, double rho,
                         size_t *n_samples, double lo[3], double hi[3], char *msg, size_t msglen)
{
  if (n < 1 || n > GC_SHAPE_MAX_SPHERES) {
    snprintf(msg, msglen, "cluster: number of spheres %zu out of range [1, %d]", n,
             GC_SHAPE_MAX_SPHERES);
    return GC_EINVAL;
  }
  if (!positive(rho)) {
    snprintf(msg, msglen, "cluster: density rho = %g kg/m^3 out of range (0, inf)", rho);
    return GC_EINVAL;
  }
  if (*n_samples == 0)
    *n_samples = GC_SHAPE_DEFAULT_SAMPLES;
  if (*n_samples < 1024) {
    snprintf(msg, msglen, "cluster: n_samples = %zu out of range [1024, inf) (0: default 2^18)",
             *n_samples);
    return GC_EINVAL;
  }
  for (size_t i = 0; i < n; i++) {
    if (!positive(radius[i])) {
      snprintf(msg, msglen, "cluster: sphere %zu: radius r = %g m out of range (0, inf)", i + 1,
               radius[i]);
      return GC_EINVAL;
    }
    for (int k = 0; k < 3; k++) {
      if (!isfinite(pos[i][k])) {
        snprintf(msg, msglen, "cluster: sphere %zu: centre coordinate %c = %g m is not finite",
                 i + 1, "xyz"[k], pos[i][k]);
        return GC_EINVAL;
      }
      double l = pos[i][k] - radius[i], h = pos[i][k] + radius[i];
      if (i == 0 || l < lo[k])
        lo[k] = l;
      if (i == 0 || h > hi[k])
        hi[k] = h;
    }
  }
  return GC_SUCCESS;
}

/* Quasi-Monte Carlo with the spheres as control variates.  The union's volume integral of
 * g(x) = {1, x, x x^T} is sum_i int_{B_i} g / c(x), c(x) >= 1 the number of spheres that hold
 * x; this is sum_i [ int_{B_i} g  +  int_{B_i} (1/c - 1) g ].  The first terms are closed
 * forms (V, V p, V (p p^T + R^2/5 1)); only the second, non-zero where spheres overlap, is
 * sampled, with Sobol points mapped onto each ball by the volume-preserving map
 * (r, cos theta, phi) = (R u0^(1/3), 1 - 2 u1, 2 pi u2), so that the ball's own surface is no
 * discontinuity of the integrand.  A sphere that overlaps no other is exact.  Moments are
 * taken about the bounding-box centre c0 (small numbers, little cancellation): V0 = volume,
 * S1 = first moment, S2 = second moments (xx yy zz xy xz yz), of the n spheres of centres rel
 * (relative to c0) and radii radius (r2 their squares). */
static int union_moments(size_t n, const double (*rel)[3], const double *radius, const double *r2,
                         size_t n_samples, double *V0_out, double S1[3], double S2[6], char *msg,
                         size_t msglen)
{
  int overlaps[GC_SHAPE_MAX_SPHERES];
  size_t n_ov = 0;
  for (size_t i = 0; i < n; i++) {
    overlaps[i] = 0;
    for (size_t j = 0; j < n && !overlaps[i]; j++) {
      double dx = rel[i][0] - rel[j][0], dy = rel[i][1] - rel[j][1], dz = rel[i][2] - rel[j][2];
      double rs = radius[i] + radius[j];
      overlaps[i] = j != i && dx * dx + dy * dy + dz * dz < rs * rs;
    }
    n_ov += (size_t)overlaps[i];
  }
  gsl_qrng *qr = NULL;
  if (n_ov > 0 && !(qr = gsl_qrng_alloc(gsl_qrng_sobol, 3))) {
    snprintf(msg, msglen, "cluster: out of memory");
    return GC_ENOMEM;
  }
  const size_t n_per = n_ov ? n_samples / n_ov : 0;
  double V0 = 0;
  memset(S1, 0, 3 * sizeof *S1);
  memset(S2, 0, 6 * sizeof *S2);
  for (size_t i = 0; i < n; i++) {
    const double *p = rel[i], R = radius[i];
    const double Vi = 4.0 / 3.0 * M_PI * r2[i] * R, a = 0.2 * r2[i];
    double C0 = 0, C1[3] = { 0, 0, 0 }, C2[6] = { 0, 0, 0, 0, 0, 0 };
    if (overlaps[i]) {
      gsl_qrng_init(qr);
      for (size_t m = 0; m < n_per; m++) {
        double u[3], x[3];
        if (gsl_qrng_get(qr, u)) { /* beyond the Sobol generator's sequence length */
          gsl_qrng_free(qr);
          snprintf(msg, msglen, "cluster: n_samples = %zu: too many quasi-random points",
                   n_samples);
          return GC_EINVAL;
        }
        const double rr = R * cbrt(u[0]), ct = 1.0 - 2.0 * u[1];
        const double st = sqrt(fmax(0.0, 1.0 - ct * ct)), ph = 2.0 * M_PI * u[2];
        x[0] = p[0] + rr * st * cos(ph);
        x[1] = p[1] + rr * st * sin(ph);
        x[2] = p[2] + rr * ct;
        int c = 1;
        for (size_t j = 0; j < n; j++) {
          double dx = x[0] - rel[j][0], dy = x[1] - rel[j][1], dz = x[2] - rel[j][2];
          c += j != i && dx * dx + dy * dy + dz * dz < r2[j];
        }
        if (c == 1)
          continue;
        const double f = 1.0 / c - 1.0;
        C0 += f;
        C1[0] += f * x[0], C1[1] += f * x[1], C1[2] += f * x[2];
        C2[0] += f * x[0] * x[0], C2[1] += f * x[1] * x[1], C2[2] += f * x[2] * x[2];
        C2[3] += f * x[0] * x[1], C2[4] += f * x[0] * x[2], C2[5] += f * x[1] * x[2];
      }
      const double w = Vi / (double)n_per;
      C0 *= w;
      for (int k = 0; k < 3; k++)
        C1[k] *= w;
      for (int k = 0; k < 6; k++)
        C2[k] *= w;
    }
    V0 += Vi + C0;
    for (int k = 0; k < 3; k++)
      S1[k] += Vi * p[k] + C1[k];
    S2[0] += Vi * (p[0] * p[0] + a) + C2[0];
    S2[1] += Vi * (p[1] * p[1] + a) + C2[1];
    S2[2] += Vi * (p[2] * p[2] + a) + C2[2];
    S2[3] += Vi * p[0] * p[1] + C2[3];
    S2[4] += Vi * p[0] * p[2] + C2[4];
    S2[5] += Vi * p[1] * p[2] + C2[5];
  }
  if (qr)
    gsl_qrng_free(qr);
  *V0_out = V0;
  return GC_SUCCESS;
}

/* The principal moments Ip (increasing) [kg m^2] and axes E (E[k][j]: component k of axis j, a
 * right-handed frame) of the inertia tensor Iten (3 x 3, row-major; overwritten). */
static int principal_axes(double Iten[9], double Ip[3], double E[3][3], char *msg, size_t msglen)
{
  gsl_matrix_view A = gsl_matrix_view_array(Iten, 3, 3);
  gsl_vector *eval = gsl_vector_alloc(3);
  gsl_matrix *evec = gsl_matrix_alloc(3, 3);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(3);
  if (!eval || !evec || !w) {
    gsl_vector_free(eval);
    gsl_matrix_free(evec);
    gsl_eigen_symmv_free(w);
    snprintf(msg, msglen, "cluster: out of memory");
    return GC_ENOMEM;
  }
  if (gsl_eigen_symmv(&A.matrix, eval, evec, w) ||
      gsl_eigen_symmv_sort(eval, evec, GSL_EIGEN_SORT_VAL_ASC)) {
    gsl_vector_free(eval);
    gsl_matrix_free(evec);
    gsl_eigen_symmv_free(w);
    snprintf(msg, msglen, "cluster: the principal axes of the inertia tensor were not found");
    return GC_ENOCONV;
  }
  for (int j = 0; j < 3; j++) {
    Ip[j] = gsl_vector_get(eval, (size_t)j);
    for (int k = 0; k < 3; k++)
      E[k][j] = gsl_matrix_get(evec, (size_t)k, (size_t)j);
  }
  gsl_vector_free(eval);
  gsl_matrix_free(evec);
  gsl_eigen_symmv_free(w);
  /* Sign convention: the largest component of axes 1 and 2 is positive; axis 3 = axis 1 x
   * axis 2 (right-handed frame). */
  for (int j = 0; j < 2; j++) {
    int kmax = 0;
    for (int k = 1; k < 3; k++)
      if (fabs(E[k][j]) > fabs(E[kmax][j]))
        kmax = k;
    if (E[kmax][j] < 0)
      for (int k = 0; k < 3; k++)
        E[k][j] = -E[k][j];
  }
  E[0][2] = E[1][0] * E[2][1] - E[2][0] * E[1][1];
  E[1][2] = E[2][0] * E[0][1] - E[0][0] * E[2][1];
  E[2][2] = E[0][0] * E[1][1] - E[1][0] * E[0][1];
  return GC_SUCCESS;
}

int gc_shape_cluster(size_t n, const double (*pos)[3], const double *radius, double rho,
                     size_t n_samples, gc_shape *s, char *msg, size_t msglen)
{
  double lo[3], hi[3];
  int st = check_cluster(n, pos, radius, rho, &n_samples, lo, hi, msg, msglen);
  if (st)
    return st;
  /* the moments about the bounding-box centre c0 (union_moments) */
  double c0[3];
  for (int k = 0; k < 3; k++)
    c0[k] = 0.5 * (lo[k] + hi[k]);
  double rel[GC_SHAPE_MAX_SPHERES][3], r2[GC_SHAPE_MAX_SPHERES];
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++)
      rel[i][k] = pos[i][k] - c0[k];
    r2[i] = radius[i] * radius[i];
  }
  double V0, S1[3], S2[6];
  st = union_moments(n, (const double(*)[3])rel, radius, r2, n_samples, &V0, S1, S2, msg, msglen);
  if (st)
    return st;
  if (!(V0 > 0)) {
    snprintf(msg, msglen,
             "cluster: the volume of the union came out %g m^3 (n_samples = %zu "
             "too small?)",
             V0, n_samples);
    return GC_EINVAL;
  }
  const double mass = rho * V0;
  double c[3]; /* centre of mass relative to c0 */
  for (int k = 0; k < 3; k++)
    c[k] = S1[k] / V0;
  /* second moments about the centre of mass per unit volume: C = <x x^T> - c c^T */
  double Cxx = S2[0] / V0 - c[0] * c[0], Cyy = S2[1] / V0 - c[1] * c[1],
         Czz = S2[2] / V0 - c[2] * c[2], Cxy = S2[3] / V0 - c[0] * c[1],
         Cxz = S2[4] / V0 - c[0] * c[2], Cyz = S2[5] / V0 - c[1] * c[2];
  /* inertia tensor I = m (tr C 1 - C) */
  double Iten[9] = { mass * (Cyy + Czz), -mass * Cxy,        -mass * Cxz,
                     -mass * Cxy,        mass * (Cxx + Czz), -mass * Cyz,
                     -mass * Cxz,        -mass * Cyz,        mass * (Cxx + Cyy) };
  double E[3][3]; /* E[k][j]: component k (input frame) of principal axis j */
  double Ip[3];
  st = principal_axes(Iten, Ip, E, msg, msglen);
  if (st)
    return st;

  memset(s, 0, sizeof *s);
  s->nsph = n;
  s->mass = mass;
  for (int j = 0; j < 3; j++)
    s->inertia[j] = Ip[j];
  for (size_t i = 0; i < n; i++) {
    double d[3];
    for (int k = 0; k < 3; k++)
      d[k] = rel[i][k] - c[k];
    for (int j = 0; j < 3; j++)
      s->pos[i][j] = E[0][j] * d[0] + E[1][j] * d[1] + E[2][j] * d[2];
    s->radius[i] = radius[i];
  }
  finish_bound(s);
  return GC_SUCCESS;
}

int gc_shape_read(const char *path, double rho, gc_shape *s, char *msg, size_t msglen)
{
  gc_table t;
  int st = gc_table_read(path, &t, msg, msglen);
  if (st)
    return st;
  static const char *const names[4] = { "x", "y", "z", "r" };
  int col[4];
  for (size_t c = 0; c < t.ncols && !st; c++) {
    int known = 0;
    for (int k = 0; k < 4; k++)
      known |= strcmp(t.names[c], names[k]) == 0;
    if (!known) {
      snprintf(msg, msglen,
               "%s:%zu:%zu: unknown column '%s' (a cluster file has the columns "
               "x [m], y [m], z [m], r [m])",
               path, t.header_line, c + 1, t.names[c]);
      st = GC_EFORMAT;
    } else if (*t.units[c] && strcmp(t.units[c], "m") != 0) {
      snprintf(msg, msglen, "%s:%zu:%zu: column '%s' is in [%s]; granucal reads SI units: use [m]",
               path, t.header_line, c + 1, t.names[c], t.units[c]);
      st = GC_EFORMAT;
    }
  }
  for (int k = 0; k < 4 && !st; k++) {
    col[k] = gc_table_col(&t, names[k]);
    if (col[k] < 0) {
      snprintf(msg, msglen,
               "%s:%zu:1: missing column '%s' (a cluster file has the columns "
               "x [m], y [m], z [m], r [m])",
               path, t.header_line, names[k]);
      st = GC_EFORMAT;
    }
  }
  if (!st && t.nrows > GC_SHAPE_MAX_SPHERES) {
    snprintf(msg, msglen, "%s:%zu:1: %zu spheres; a cluster has at most %d", path,
             t.line[GC_SHAPE_MAX_SPHERES], t.nrows, GC_SHAPE_MAX_SPHERES);
    st = GC_EFORMAT;
  }
  double p[GC_SHAPE_MAX_SPHERES][3], r[GC_SHAPE_MAX_SPHERES];
  for (size_t i = 0; i < t.nrows && !st; i++) {
    for (int k = 0; k < 3; k++)
      p[i][k] = gc_table_get(&t, i, (size_t)col[k]);
    r[i] = gc_table_get(&t, i, (size_t)col[3]);
    if (!(r[i] > 0)) {
      snprintf(msg, msglen, "%s:%zu:%d: sphere radius r = %g m out of range (0, inf)", path,
               t.line[i], col[3] + 1, r[i]);
      st = GC_EFORMAT;
    }
  }
  size_t n = t.nrows;
  gc_table_free(&t);
  if (st)
    return st;
  char sub[256];
  st = gc_shape_cluster(n, (const double(*)[3])p, r, rho, 0, s, sub, sizeof sub);
  if (st)
    snprintf(msg, msglen, "%s: %s", path, sub);
  return st;
}

/* ---------------------------------------------------------------------------------------------
 * Rotation */

void gc_rot_init(const double I[3], const double M_body[3], double dt, const double q[4],
                 const double w0[3], gc_rot *r)
{
  double d[3];
  gc_euler_incr(I, M_body, dt, w0, d);
  for (int k = 0; k < 4; k++)
    r->q[k] = q[k];
  gc_quat_normalize(r->q);
  for (int k = 0; k < 3; k++) {
    r->w[k] = w0[k] - 0.5 * d[k];
    r->dw[k] = d[k];
  }
}

void gc_rot_step(const double I[3], const double M_body[3], double dt, gc_rot *r)
{
  gc_rot_step_inline(I, M_body, dt, r);
}

/* gc_rot_omega_space is inline in rigid.h. */
