/* rigid.h - rigid sphere-cluster particles for the flow simulator (seed ch. 2): quaternions
 * (eq. 2.21-2.28), cluster geometry and mass properties (eq. 2.13, fig. 2.3), and the
 * predictor-corrector integration of Euler's equations in body axes (eq. 2.14-2.20).
 *
 * Conventions: vectors are double[3]; a quaternion is double[4] = (q0, q1, q2, q3) with q0 the
 * scalar part, unit norm, and rotates body (principal) axes to space axes: v_space = R(q) v_body.
 * (The seed's eq. 2.22 writes the transpose, space -> body, with Evans's component order; only
 * the convention here is used in code.)  All quantities SI.  No I/O except gc_shape_read. */
#ifndef GC_RIGID_H
#define GC_RIGID_H

#include <math.h>
#include <stddef.h>

#define GC_SHAPE_MAX_SPHERES 16

/* Quaternion helpers. */
void gc_quat_identity(double q[4]);
/* Divides by the norm; a zero or non-finite q becomes the identity. */
void gc_quat_normalize(double q[4]);
/* Rotation matrix, row-major: v_space = M v_body.  Inline (with the rotations below): the
 * chute forms one or two per particle and step, and a call left the matrix in memory, where
 * the compiler had to read it again after every store of the caller. */
static inline void gc_quat_to_matrix(const double q[4], double M[9])
{
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  M[0] = 1.0 - 2.0 * (y * y + z * z);
  M[1] = 2.0 * (x * y - w * z);
  M[2] = 2.0 * (x * z + w * y);
  M[3] = 2.0 * (x * y + w * z);
  M[4] = 1.0 - 2.0 * (x * x + z * z);
  M[5] = 2.0 * (y * z - w * x);
  M[6] = 2.0 * (x * z - w * y);
  M[7] = 2.0 * (y * z + w * x);
  M[8] = 1.0 - 2.0 * (x * x + y * y);
}

/* v' = v + 2 s (u x v) + 2 u x (u x v) with q = (s, u), unit q. */
static inline void gc_quat_rotate_su(double s, double ux, double uy, double uz, const double v[3],
                                     double out[3])
{
  double tx = 2.0 * (uy * v[2] - uz * v[1]);
  double ty = 2.0 * (uz * v[0] - ux * v[2]);
  double tz = 2.0 * (ux * v[1] - uy * v[0]);
  double ox = v[0] + s * tx + (uy * tz - uz * ty);
  double oy = v[1] + s * ty + (uz * tx - ux * tz);
  double oz = v[2] + s * tz + (ux * ty - uy * tx);
  out[0] = ox, out[1] = oy, out[2] = oz;
}

static inline void gc_quat_rotate(const double q[4], const double v_body[3], double v_space[3])
{
  gc_quat_rotate_su(q[0], q[1], q[2], q[3], v_body, v_space);
}

static inline void gc_quat_rotate_inv(const double q[4], const double v_space[3], double v_body[3])
{
  gc_quat_rotate_su(q[0], -q[1], -q[2], -q[3], v_space, v_body);
}
/* Hamilton product c = a (x) b (c may alias a or b): R(c) = R(a) R(b). */
void gc_quat_mul(const double a[4], const double b[4], double c[4]);
/* Uniformly distributed random orientation from three uniform numbers u in [0,1) (Shoemake). */
void gc_quat_from_uniform(const double u[3], double q[4]);

/* A rigid particle made of spheres, expressed in its principal axes with the centre of mass at
 * the origin. */
typedef struct {
  size_t nsph;                         /* number of constituent spheres, 1..GC_SHAPE_MAX_SPHERES */
  double pos[GC_SHAPE_MAX_SPHERES][3]; /* sphere centres in body axes [m] */
  double radius[GC_SHAPE_MAX_SPHERES]; /* sphere radii [m] */
  double mass;                         /* [kg] */
  double inertia[3];                   /* principal moments of inertia [kg m^2] */
  double bound_radius;                 /* max over spheres of |pos| + radius [m] */
} gc_shape;

/* A single homogeneous sphere: I = 2/5 m R^2. */
int gc_shape_sphere(double radius, double mass, gc_shape *s, char *msg, size_t msglen);
/* The seed's ellipsoid approximation (sec. 2.2, fig. 2.3): four equal spheres of radius
 * R = H/2 in the body x-y plane, two on the x axis at +-(L/2 - R) and two on the y axis at
 * +-(W/2 - R), so that the cluster's extent is L x W x H.  Mass given; principal moments of
 * the ellipsoid of axes L, W, H (eq. 2.13): Ix = m (W^2 + H^2)/20, Iy = m (L^2 + H^2)/20,
 * Iz = m (L^2 + W^2)/20.  Requires L >= W >= H > 0 (finite), m > 0, and that the x and y
 * spheres touch, (L - H)^2 + (W - H)^2 <= 4 H^2, so that the cluster is one body (W = H or
 * L = W puts two spheres at the same place, which is allowed).  Errors (GC_EINVAL) name the
 * parameter and its allowed range. */
int gc_shape_ellipsoid4(double L, double W, double H, double mass, gc_shape *s, char *msg,
                        size_t msglen);
/* A general cluster of n spheres (any frame) of uniform density rho [kg/m^3]: volume, centre of
 * mass and inertia tensor of the union of the spheres (overlaps counted once) by quasi-Monte
 * Carlo integration (GSL Sobol sequence), principal axes by gsl_eigen_symmv; the spheres are
 * then expressed in principal axes relative to the centre of mass.  The spheres serve as
 * control variates: their own moments are closed forms and only the overlap correction,
 * int over B_i of (1/c(x) - 1) {1, x, x x^T} with c(x) the number of spheres holding x, is
 * sampled, with n_samples points in all, shared equally by the spheres that overlap another
 * and mapped volume-preservingly onto each ball.  So one sphere and disjoint spheres are exact,
 * and the error is that of the overlaps: ~1e-4 relative with the default n_samples = 0 -> 2^18
 * for the seed's four-sphere soybean (otherwise n_samples >= 1024).  Principal moments in
 * ascending order (inertia[0] smallest); the principal frame is right-handed (axis 3 =
 * axis 1 x axis 2), with the largest input-frame component of axes 1 and 2 positive (axes of
 * equal moments, e.g. of one sphere or about a symmetry axis, are set by sampling noise; any
 * choice is principal).  Errors (GC_EINVAL) name the sphere and the parameter.  Allocates
 * (GSL) only during the call; O(n_samples n) time. */
int gc_shape_cluster(size_t n, const double (*pos)[3], const double *radius, double rho,
                     size_t n_samples, gc_shape *s, char *msg, size_t msglen);
/* Read a cluster from a CSV file with header "x [m],y [m],z [m],r [m]" (gc_table) and build it
 * with gc_shape_cluster; errors name file:line:column. */
int gc_shape_read(const char *path, double rho, gc_shape *s, char *msg, size_t msglen);

/* Rotational state of one particle for the leap-frog scheme: the orientation is known at t_n,
 * the angular velocity at the half step t_{n-1/2}. */
typedef struct {
  double q[4];  /* orientation at t_n */
  double w[3];  /* angular velocity in body axes at t_{n-1/2} [rad/s] */
  double dw[3]; /* increment of w over the previous step, Delta omega_{n-1} (eq. 2.14) */
} gc_rot;

/* One step of eq. 2.14-2.20: with the body-axis torque M at t_n, predict omega'_n =
 * omega_{n-1/2} + dw/2 (2.14), Delta omega'_n from Euler's equations (2.15-2.16), corrected
 * omega_n = omega_{n-1/2} + Delta omega'_n / 2 (2.17), Delta omega_n (2.18-2.19) and
 * omega_{n+1/2} = omega_{n-1/2} + Delta omega_n (2.20).  Then the quaternion from t_n to
 * t_{n+1} with omega_{n+1/2} by the implicit midpoint rule of eq. 2.24-2.27 (norm-preserving
 * Cayley form) and renormalisation (2.28).  I: principal moments (> 0), M_body: torque about
 * the centre of mass in body axes at t_n [N m].  No allocation, no checks. */
void gc_rot_step(const double I[3], const double M_body[3], double dt, gc_rot *r);
/* dt I^-1 [M - w x (I w)] in body axes (eq. 2.12, 2.16, 2.19) */
static inline void gc_euler_incr(const double I[3], const double M[3], double dt, const double w[3],
                                 double d[3])
{
  d[0] = dt * (M[0] + w[1] * w[2] * (I[1] - I[2])) / I[0];
  d[1] = dt * (M[1] + w[2] * w[0] * (I[2] - I[0])) / I[1];
  d[2] = dt * (M[2] + w[0] * w[1] * (I[0] - I[1])) / I[2];
}

/* gc_rot_step, inline, with isotropic = (I[0] == I[1] == I[2]) given: the chute steps the
 * particles of a batch side by side with it, a loop over them that the compiler turns into
 * vector operations (each particle's numbers those of gc_rot_step), and passes the shape's
 * constant so that no branch is left in the loop. */
static inline void gc_rot_step_body(const double I[3], const double M_body[3], double dt, gc_rot *r,
                                    const int isotropic)
{
  double wp[3], d[3], wn[3];
  if (isotropic) {
    /* Isotropic body (a sphere): the gyroscopic term w x (I w) vanishes, Delta omega does not
     * depend on omega, and the predictor-corrector of 2.14-2.19 returns dt M / I at once.
     * The same numbers as the general branch (there w_a w_b (I_b - I_c) = 0 is added to M). */
    for (int k = 0; k < 3; k++)
      d[k] = dt * M_body[k] / I[k];
  } else {
    for (int k = 0; k < 3; k++)
      wp[k] = r->w[k] + 0.5 * r->dw[k];  /* (2.14) predicted omega'_n */
    gc_euler_incr(I, M_body, dt, wp, d); /* (2.15-2.16) */
    for (int k = 0; k < 3; k++)
      wn[k] = r->w[k] + 0.5 * d[k];      /* (2.17) corrected omega_n */
    gc_euler_incr(I, M_body, dt, wn, d); /* (2.18-2.19) */
  }
  for (int k = 0; k < 3; k++) {
    r->dw[k] = d[k];
    r->w[k] += d[k]; /* (2.20) omega_{n+1/2} */
  }
  /* (2.24-2.27): q_{n+1} - q_n = dt/2 G(w) (q_n + q_{n+1})/2, G(w) q = q (x) (0, w).  With
   * B = dt/4 G(w), B^2 = -beta^2 1, beta = dt |w| / 4, the solution is the Cayley transform
   * q_{n+1} = [(1 - beta^2) q_n + 2 B q_n] / (1 + beta^2), of unit norm. */
  const double *w = r->w, *q = r->q;
  const double h = 0.25 * dt;
  const double b2 = h * h * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double Bq0 = h * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]);
  const double Bq1 = h * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]);
  const double Bq2 = h * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]);
  const double Bq3 = h * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]);
  const double a = 1.0 - b2, inv = 1.0 / (1.0 + b2);
  double qn[4] = { (a * q[0] + 2.0 * Bq0) * inv, (a * q[1] + 2.0 * Bq1) * inv,
                   (a * q[2] + 2.0 * Bq2) * inv, (a * q[3] + 2.0 * Bq3) * inv };
  /* (2.28): the Cayley form keeps the norm to rounding; renormalise so it does not drift. */
  double n2 = qn[0] * qn[0] + qn[1] * qn[1] + qn[2] * qn[2] + qn[3] * qn[3];
  double s = 1.0 / sqrt(n2);
  for (int k = 0; k < 4; k++)
    r->q[k] = qn[k] * s;
}

/* Start a state at t_0 from orientation q (normalised here) and angular velocity w0 [body
 * axes] at t_0, with the body torque M_body at t_0: w = w0 - dt/2 dw/dt and dw = dt dw/dt
 * (Euler's equations 2.12), so that the leap-frog half-step velocity is second-order accurate
 * and the predictor (2.14) of the first step returns w0.  (Setting w = w0, dw = 0 by hand
 * makes an O(dt) error in the phase of the motion.) */
void gc_rot_init(const double I[3], const double M_body[3], double dt, const double q[4],
                 const double w0[3], gc_rot *r);
/* Angular velocity in space axes of a state, from its body-axis w: R(q) w (note that w is at
 * the half step and q at the full step). */
static inline void gc_rot_omega_space(const gc_rot *r, double w_space[3])
{
  gc_quat_rotate(r->q, r->w, w_space);
}

/* gc_rot_step_body with isotropic tested (gc_rot_step's body). */
static inline void gc_rot_step_inline(const double I[3], const double M_body[3], double dt,
                                      gc_rot *r)
{
  gc_rot_step_body(I, M_body, dt, r, I[0] == I[1] && I[1] == I[2]);
}
#endif
