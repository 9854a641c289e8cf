/* outputs.c - the output files of `granucal chute` (series, profiles, forces, VTK). */
#include "chute_out_int.h"

static char *join(const char *dir, const char *name)
{
  size_t l = strlen(dir) + strlen(name) + 2;
  char *p = malloc(l);
  if (p)
    snprintf(p, l, "%s/%s", dir, name);
  return p;
}

static long steps_of(double interval, double dt)
{
  if (!(interval > 0))
    return 0;
  long k = (long)llround(interval / dt);
  return k < 1 ? 1 : k;
}

/* The outputs of a run, one row each (chute_io.h, gc_chute_output): adding an output is its
 * writer and one row here (and its number in chute_io.h).  The output guard
 * (gc_chute_out_plan), the file names of the writers (chute_file_path) and the page
 * granucal-chute(5), OUTPUTS, Files (test_chute.c checks it) come from this table. */
static const gc_chute_output chute_outputs[GC_CHUTE_NFILES] = {
  [GC_CHUTE_FILE_PROVENANCE] = { "provenance.txt", "the granucal version, the command line, the "
                                                   "date and the CRC-32 of every input" },
  [GC_CHUTE_FILE_EFFECTIVE] = { "effective.chute", "the card as run: every key with its value and "
                                                   "where it was set; it runs again as "
                                                   "a card" },
  [GC_CHUTE_FILE_SERIES] = { "series.csv", "the time series every series_interval: mean particle "
                                           "velocity, kinetic energy, "
                                           "contacts, largest contact force, the energy budget "
                                           "since the start and the slope "
                                           "of vx over the trailing steady_window (fig. 9.4-9.5)" },
  [GC_CHUTE_FILE_PROFILE_SIDE_WALL] = { "profile-side-wall.csv",
                                        "the velocity profile of the side view near the walls "
                                        "(wall_band), averaged over "
                                        "the profile window (fig. 9.6-9.9)" },
  [GC_CHUTE_FILE_PROFILE_SIDE_ALL] = { "profile-side-all.csv",
                                       "the velocity profile of the side view of all particles" },
  [GC_CHUTE_FILE_PROFILE_SIDE_CENTRE] = { "profile-side-centre.csv",
                                          "the velocity profile of the side view at the centre "
                                          "line (centre_band)" },
  [GC_CHUTE_FILE_PROFILE_TOP_SURFACE] = { "profile-top-surface.csv",
                                          "the velocity profile of the top view near the surface "
                                          "(surface_y_min to "
                                          "surface_y_max)" },
  [GC_CHUTE_FILE_PROFILE_TOP_BOTTOM] = { "profile-top-bottom.csv",
                                         "the velocity profile of the top view near the bottom "
                                         "(bottom_y_min to "
                                         "bottom_y_max)" },
  [GC_CHUTE_FILE_FORCES] = { "forces.csv", "the contact-force histogram and its cumulative "
                                           "distribution over forces_steps "
                                           "steps ending at forces_time (fig. 9.11-9.14)" },
  [GC_CHUTE_FILE_BOTTOM_VTK] = { "bottom.vtk", "the bottom beads, a VTK file (vtk_interval > 0)" },
  [GC_CHUTE_FILE_PARTICLES] = { "particles_%06ld.vtk", "a VTK snapshot of the particles' spheres "
                                                       "every vtk_interval, numbered from 0" },
  [GC_CHUTE_FILE_PVD] = { "particles.pvd",
                          "the ParaView collection of the snapshots with their times" },
  [GC_CHUTE_FILE_CHECKPOINT] = { "checkpoint.bin",
                                 "the checkpoint every checkpoint_interval and at the end, for "
                                 "--resume: the "
                                 "state, the record of the outputs so far and a CRC-32" },
};

const gc_chute_output *gc_chute_output_at(int file)
{
  return file >= 0 && file < GC_CHUTE_NFILES ? &chute_outputs[file] : NULL;
}

void gc_chute_print_outputs(FILE *f, int indent)
{
  for (int k = 0; k < GC_CHUTE_NFILES; k++) {
    const char *name = chute_outputs[k].name, *s = chute_outputs[k].what;
    /* a numbered file (a printf format of its number): its digits as N */
    const char *pc = strchr(name, '%');
    int col = pc ? fprintf(f, "  %.*sNNNNNN%s", (int)(pc - name), name, pc + strcspn(pc, "d") + 1)
                 : fprintf(f, "  %s", name);
    if (col >= indent) { /* a name as long as the indent: its text starts on the next line */
      fputc('\n', f);
      col = 0;
    }
    /* the text in words, from column indent to column 79 */
    while (*s) {
      size_t len = strcspn(s, " ");
      if (col > indent && col + 1 + (int)len > 79) {
        fputc('\n', f);
        col = 0;
      }
      col += col < indent ? fprintf(f, "%*s", indent - col, "") : fprintf(f, " ");
      col += fprintf(f, "%.*s", (int)len, s);
      s += len;
      s += strspn(s, " ");
    }
    fputc('\n', f);
  }
}

const char *gc_chute_file_name(int file)
{
  return file >= 0 && file < GC_CHUTE_NFILES ? chute_outputs[file].name : NULL;
}

size_t gc_chute_run_inputs(const gc_chute_run *run, const char *ins[GC_CHUTE_NINPUTS])
{
  const char *all[GC_CHUTE_NINPUTS] = { run->params_path, run->wall_path, run->bead_path,
                                        run->cluster_path };
  size_t k = 0;
  for (size_t i = 0; i < GC_CHUTE_NINPUTS; i++)
    if (*all[i])
      ins[k++] = all[i];
  return k;
}

void gc_chute_out_plan(const gc_chute_run *run, const char *card, const char *resume,
                       const char *dir, gc_outplan *plan)
{
  gc_outplan_dir(plan, dir);
  long ckpt = -1;
  for (int i = 0; i < GC_CHUTE_NFILES; i++)
    gc_outplan_dir_file(plan, dir, chute_outputs[i].name,
                        i == GC_CHUTE_FILE_CHECKPOINT ? &ckpt : NULL);
  gc_outplan_input(plan, card, -1);
  const char *ins[GC_CHUTE_NINPUTS];
  size_t nin = gc_chute_run_inputs(run, ins);
  for (size_t i = 0; i < nin; i++)
    gc_outplan_input(plan, ins[i], -1);
  gc_outplan_input(plan, resume, ckpt);
}

/* DIR/the table's file (file, frame: the snapshot's number for GC_CHUTE_FILE_PARTICLES). */
char *chute_file_path(const char *dir, int file, long frame)
{
  char name[64];
  snprintf(name, sizeof name, chute_outputs[file].name, frame);
  return join(dir, name);
}

static void out_free(gc_chute_out *o)
{
  for (int i = 0; i < NPROF; i++) {
    if (o->prof[i].n)
      gsl_histogram2d_free(o->prof[i].n);
    for (int d = 0; d < 3; d++)
      if (o->prof[i].v[d])
        gsl_histogram2d_free(o->prof[i].v[d]);
  }
  if (o->hist)
    gsl_histogram_free(o->hist);
  free(o->P);
  free(o->st);
  free(o->sv);
  free(o->pend);
  free(o->series_path);
  free(o->dir);
  free(o);
}

void gc_chute_budget_get(const gc_chute *c, gc_chute_budget *b)
{
  gc_chute_stats st;
  gc_chute_stats_get(c, &st);
  double en[GC_NCAT], et[GC_NCAT], work = 0.0;
  gc_chute_energy_stored(c, en, et);
  const gc_chute_energy *e = &c->energy;
  b->gravity = e->gravity;
  b->dkinetic = st.kinetic - e->kinetic0;
  b->elastic = 0.0;
  for (int k = 0; k < GC_NCAT; k++) {
    b->elastic += en[k] + et[k];
    b->d_normal[k] = e->normal[k] - en[k];
    b->d_tangential[k] = e->tangential[k] - et[k];
    work += e->normal[k] + e->tangential[k];
  }
  b->residual = b->gravity - b->dkinetic - work;
}

/* room for one more (t, vx) of the steady-state test */
int chute_series_grow(gc_chute_out *o)
{
  if (o->sn == o->scap) {
    size_t cap = 2 * o->scap + 1024;
    double *a = realloc(o->st, cap * sizeof *a);
    if (!a)
      return GC_ENOMEM;
    o->st = a;
    double *b = realloc(o->sv, cap * sizeof *b);
    if (!b)
      return GC_ENOMEM;
    o->sv = b;
    o->scap = cap;
  }
  return GC_SUCCESS;
}

/* The steady-state test over the series rows and, if the state c has no row yet, its own
 * (the row finish writes) */
int gc_chute_out_steady(gc_chute_out *o, const gc_chute *c, gc_steady *s, char *msg, size_t n)
{
  size_t m = o->sn;
  if (c->step != o->last_series_step) {
    if (chute_series_grow(o)) {
      snprintf(msg, n, "out of memory");
      return GC_ENOMEM;
    }
    gc_chute_stats st;
    gc_chute_stats_get(c, &st);
    o->st[m] = st.t;
    o->sv[m] = st.v_mean[0];
    m++;
  }
  return gc_steady_fit(o->st, o->sv, m, o->run.steady_window, (size_t)o->run.steady_batches, 0.95,
                       s, msg, n);
}

/* Bytes of series.csv: into the temporary before its first flush, else kept for the next */
int chute_series_put(gc_chute_out *o, const char *b, size_t len)
{
  o->series_crc = (uint32_t)crc32_z(o->series_crc, (const Bytef *)b, len);
  o->series_bytes += len;
  if (!o->series_placed)
    return fwrite(b, 1, len, o->series.f) == len ? GC_SUCCESS : GC_EIO;
  if (o->plen + len > o->pcap) {
    size_t cap = 2 * (o->plen + len) + 4096;
    char *p = realloc(o->pend, cap);
    if (!p)
      return GC_ENOMEM;
    o->pend = p;
    o->pcap = cap;
  }
  memcpy(o->pend + o->plen, b, len);
  o->plen += len;
  return GC_SUCCESS;
}

static const char series_header[] =
    "t [s],vx [m/s],vy [m/s],vz [m/s],E_kin [J],contacts,contacts_pp,P_max [N],W_gravity [J],"
    "dE_kin [J],E_elastic [J],D_normal_pp [J],D_tangential_pp [J],D_normal_wall [J],"
    "D_tangential_wall [J],D_normal_bottom [J],D_tangential_bottom [J],residual [J],"
    "dvx_dt [m/s^2],dvx_dt_ci95 [m/s^2]\n";

static int series_row(gc_chute_out *o, const gc_chute *c)
{
  gc_chute_stats st;
  gc_chute_stats_get(c, &st);
  if (chute_series_grow(o))
    return GC_ENOMEM;
  o->st[o->sn] = st.t;
  o->sv[o->sn] = st.v_mean[0];
  o->sn++;
  gc_chute_budget b;
  gc_chute_budget_get(c, &b);
  char row[1024];
  size_t l = 0;
#define ROW(...) (l += (size_t)snprintf(row + l, l < sizeof row ? sizeof row - l : 0, __VA_ARGS__))
  ROW("%.10g,%.10g,%.10g,%.10g,%.10g,%zu,%zu,%.10g", st.t, st.v_mean[0], st.v_mean[1], st.v_mean[2],
      st.kinetic, st.n_contacts, st.n_contacts_pp, st.P_max);
  ROW(",%.10g,%.10g,%.10g", b.gravity, b.dkinetic, b.elastic);
  for (int k = 0; k < GC_NCAT; k++)
    ROW(",%.10g,%.10g", b.d_normal[k], b.d_tangential[k]);
  ROW(",%.6g", b.residual);
  /* the trailing-window slope once the window is filled (empty fields before) */
  gc_steady sd;
  char m2[256];
  if (st.t - o->st[0] >= o->run.steady_window * (1 - 1e-9) &&
      gc_steady_fit(o->st, o->sv, o->sn, o->run.steady_window, (size_t)o->run.steady_batches, 0.95,
                    &sd, m2, sizeof m2) == GC_SUCCESS)
    ROW(",%.6g,%.6g\n", sd.slope, sd.half_ci);
  else
    ROW(",,\n");
#undef ROW
  o->last_series_step = c->step;
  if (l >= sizeof row)
    return GC_EIO;
  return chute_series_put(o, row, l);
}

/* series.csv up to date on the disk: its temporary synced and renamed into place at the first
 * call, then the rows since the last call appended and synced */
int chute_series_flush(gc_chute_out *o, char *msg, size_t n)
{
  int st;
  if (!o->series_placed) {
    if ((st = gc_outfile_sync(&o->series, msg, n)))
      return st;
    st = gc_outfile_commit(&o->series, msg, n);
    o->series_open = 0;
    o->series_placed = !st;
    return st;
  }
  if (!o->plen)
    return GC_SUCCESS;
  int fd = open(o->series_path, O_WRONLY | O_APPEND);
  off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
  size_t done = 0;
  while (fd >= 0 && done < o->plen) {
    ssize_t w = write(fd, o->pend + done, o->plen - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  int err = fd < 0                              ? errno
            : done < o->plen                    ? (errno ? errno : EIO)
            : fsync(fd) != 0 && errno != EINVAL ? errno
                                                : 0;
  /* a failed append (a full disk) is taken back, so that the file ends at the last checkpoint
   * (should that fail too, --resume still takes only the bytes the checkpoint records) */
  int undone = err && fd >= 0 && end >= 0 ? ftruncate(fd, end) : 0;
  (void)undone;
  if (fd >= 0 && close(fd) != 0 && !err)
    err = errno;
  if (err) {
    snprintf(msg, n, "%s: write error: %s", o->series_path, strerror(err));
    return GC_EIO;
  }
  o->plen = 0;
  return GC_SUCCESS;
}

/* The grids of the profiles (fig. 9.6-9.9) and the force histogram (fig. 9.11-9.14) of o;
 * on failure the caller frees o (out_free). */
static int out_grids(gc_chute_out *o, const gc_chute_run *run, char *msg, size_t n)
{
  const gc_chute_cfg *cfg = &run->sim;
  /* profiles (fig. 9.6-9.9) */
  double L = cfg->length, W = cfg->width, H = run->profile_height, cell = run->profile_cell;
  double ybot = cfg->bottom == GC_BOTTOM_NONE ? 0.0 : -cfg->bead_radius;
  size_t nx = (size_t)ceil(L / cell - 1e-9), ny = (size_t)ceil((H - ybot) / cell - 1e-9),
         nz = (size_t)ceil(W / cell - 1e-9);
  if (nx < 1)
    nx = 1;
  if (ny < 1)
    ny = 1;
  if (nz < 1)
    nz = 1;
  if (nx * ny > 100000000 || nx * nz > 100000000) {
    snprintf(msg, n, "profile_cell = %g m: too many profile cells", cell);
    return GC_EINVAL;
  }
  double cb = run->centre_band;
  profile defs[NPROF] = {
    { GC_CHUTE_FILE_PROFILE_SIDE_WALL,
      "side view near the walls",
      0,
      0.0,
      run->wall_band,
      1,
      0,
      0,
      NULL,
      { NULL } },
    { GC_CHUTE_FILE_PROFILE_SIDE_ALL,
      "side view of all particles",
      0,
      -INFINITY,
      INFINITY,
      0,
      0,
      0,
      NULL,
      { NULL } },
    { GC_CHUTE_FILE_PROFILE_SIDE_CENTRE,
      "side view at the centre line",
      0,
      W / 2 - cb / 2,
      W / 2 + cb / 2,
      0,
      0,
      0,
      NULL,
      { NULL } },
    { GC_CHUTE_FILE_PROFILE_TOP_SURFACE,
      "top view near the surface",
      1,
      0,
      0,
      0,
      run->surface_lo,
      run->surface_hi,
      NULL,
      { NULL } },
    { GC_CHUTE_FILE_PROFILE_TOP_BOTTOM,
      "top view near the bottom",
      1,
      0,
      0,
      0,
      run->bottom_lo,
      run->bottom_hi,
      NULL,
      { NULL } },
  };
  for (int i = 0; i < NPROF; i++) {
    o->prof[i] = defs[i];
    size_t n2 = defs[i].top ? nz : ny;
    double lo2 = defs[i].top ? 0.0 : ybot, hi2 = defs[i].top ? W : ybot + (double)ny * cell;
    profile *p = &o->prof[i];
    p->n = gsl_histogram2d_alloc(nx, n2);
    for (int d = 0; d < 3; d++)
      p->v[d] = p->n ? gsl_histogram2d_alloc(nx, n2) : NULL;
    if (!p->n || !p->v[0] || !p->v[1] || !p->v[2]) {
      snprintf(msg, n, "out of memory");
      return GC_ENOMEM;
    }
    int bad = gsl_histogram2d_set_ranges_uniform(p->n, 0.0, L, lo2, hi2);
    for (int d = 0; d < 3; d++)
      bad |= gsl_histogram2d_set_ranges_uniform(p->v[d], 0.0, L, lo2, hi2);
    if (bad) {
      snprintf(msg, n, "%s: empty grid [0, %g] x [%g, %g] m", chute_outputs[defs[i].file].name, L,
               lo2, hi2);
      return GC_EINVAL;
    }
  }
  /* force histogram (fig. 9.11-9.14) */
  o->hist = gsl_histogram_alloc((size_t)run->forces_bins);
  if (!o->hist) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  if (gsl_histogram_set_ranges_uniform(o->hist, 0.0, run->forces_max)) {
    snprintf(msg, n, "forces_max = %g out of range (0, inf) N", run->forces_max);
    return GC_EINVAL;
  }
  return GC_SUCCESS;
}

int gc_chute_out_open(gc_chute_out **out, const gc_chute_run *run, const gc_chute *c,
                      const char *dir, char *msg, size_t n)
{
  *out = NULL;
  gc_chute_out *o = calloc(1, sizeof *o);
  if (!o || !(o->dir = strdup(dir))) {
    free(o);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  o->run = *run;
  const gc_chute_cfg *cfg = &run->sim;
  double dt = cfg->dt;
  o->k_series = steps_of(run->series_interval, dt);
  o->k_vtk = steps_of(run->vtk_interval, dt);
  o->k_ckpt = steps_of(run->checkpoint_interval, dt);
  o->k_prof = steps_of(run->profile_interval, dt);
  o->prof_first = (long)ceil(run->profile_start / dt - 1e-6);
  o->prof_last = (long)floor(run->profile_end / dt + 1e-6);
  o->force_last = (long)llround(run->forces_time / dt);
  if (o->force_last > run->n_steps)
    o->force_last = run->n_steps;
  o->force_first = o->force_last - run->forces_steps + 1;
  if (o->force_first < 0)
    o->force_first = 0;
  o->last_series_step = -1;
  o->prof_through = o->force_through = -1;
  o->series_crc = (uint32_t)crc32(0L, Z_NULL, 0);

  int st = out_grids(o, run, msg, n);
  if (st) {
    out_free(o);
    return st;
  }
  o->series_path = chute_file_path(dir, GC_CHUTE_FILE_SERIES, 0);
  if (!o->series_path) {
    out_free(o);
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  st = gc_outfile_open(&o->series, o->series_path, msg, n);
  if (st) {
    out_free(o);
    return st;
  }
  o->series_open = 1;
  if (chute_series_put(o, series_header, sizeof series_header - 1)) {
    snprintf(msg, n, "%s: write error", o->series_path);
    gc_chute_out_abort(o);
    return GC_EIO;
  }
  if (c->nbeads && o->k_vtk) { /* bead lattice or random monolayer */
    char *bp = chute_file_path(dir, GC_CHUTE_FILE_BOTTOM_VTK, 0);
    st = bp ? gc_chute_write_vtk(c, 1, bp, msg, n) : GC_ENOMEM;
    free(bp);
    if (st) {
      gc_chute_out_abort(o);
      return st;
    }
  }
  o->vtk_frame = o->k_vtk ? c->step / o->k_vtk : 0;
  *out = o;
  return GC_SUCCESS;
}

static void profile_sample(gc_chute_out *o, const gc_chute *c)
{
  const gc_chute_cfg *cfg = &o->run.sim;
  for (size_t n = 0; n < c->np; n++) { /* by particle number: sums independent of the order */
    const size_t k = c->index_of[n];
    const double *x = c->x + 3 * k, *v = c->v + 3 * k;
    for (int i = 0; i < NPROF; i++) {
      profile *p = &o->prof[i];
      int in;
      if (p->top)
        in = x[1] >= p->ylo && x[1] < p->yhi;
      else
        in = (x[2] >= p->zlo && x[2] < p->zhi) ||
             (p->both_walls && x[2] > cfg->width - p->zhi && x[2] <= cfg->width - p->zlo);
      if (!in)
        continue;
      double a = x[0], b = p->top ? x[2] : x[1];
      if (!(a >= p->n->xrange[0] && a < p->n->xrange[p->n->nx] && b >= p->n->yrange[0] &&
            b < p->n->yrange[p->n->ny]))
        continue; /* outside the grid (gsl_histogram2d_find would call the error handler) */
      gsl_histogram2d_accumulate(p->n, a, b, 1.0);
      for (int d = 0; d < 3; d++)
        gsl_histogram2d_accumulate(p->v[d], a, b, v[d]);
    }
  }
  o->frames++;
}

static int force_sample(gc_chute_out *o, const gc_chute *c, char *msg, size_t n)
{
  size_t m = gc_chute_contact_forces(c, o->P, o->Pcap);
  if (m > o->Pcap) {
    size_t cap = m + m / 2 + 16;
    double *P = realloc(o->P, cap * sizeof *P);
    if (!P) {
      snprintf(msg, n, "out of memory");
      return GC_ENOMEM;
    }
    o->P = P;
    o->Pcap = cap;
    m = gc_chute_contact_forces(c, o->P, o->Pcap);
  }
  for (size_t i = 0; i < m; i++) {
    double P = o->P[i];
    if (P < o->run.forces_max)
      gsl_histogram_increment(o->hist, P);
    else {
      o->n_over++;
      o->P_over_max = fmax(o->P_over_max, P);
    }
    o->n_le005 += P <= 0.05;
    o->n_le01 += P <= 0.1;
  }
  o->n_forces += m;
  o->force_steps_done++;
  return GC_SUCCESS;
}

int gc_chute_out_record(gc_chute_out *o, const gc_chute *c, char *msg, size_t n)
{
  long s = c->step;
  int st = GC_SUCCESS;
  if (o->k_series && s % o->k_series == 0 && s != o->last_series_step) {
    /* the geometric bound of the contact laws (gc_law_overlap_check), at every row */
    gc_chute_stats cs;
    gc_chute_stats_get(c, &cs);
    if (!(cs.overlap_ratio <= GC_ALPHA_R_MAX)) {
      const gc_params *pp = &o->run.sim.pp;
      snprintf(msg, n,
               "at t = %.6g s the overlap alpha = %.4g m of particle %zu is alpha/R* = "
               "%.3g, beyond the geometric validity alpha <= %g R* (R* = %.4g m) of the "
               "contact laws: E too small (E = %g Pa, K_c = %g 1/N in %s) or gravity too large "
               "(%g m/s^2)",
               c->t, cs.overlap_alpha, cs.overlap_particle, cs.overlap_ratio, GC_ALPHA_R_MAX,
               cs.overlap_R_star, pp->E1, pp->K_c, o->run.params_path, o->run.sim.gravity);
      return GC_EPHYS;
    }
    if ((st = series_row(o, c))) {
      snprintf(msg, n, "%s/series.csv: write error", o->dir);
      return st;
    }
  }
  if (s >= o->prof_first && s <= o->prof_last && (s - o->prof_first) % o->k_prof == 0 &&
      s > o->prof_through)
    profile_sample(o, c);
  if (s >= o->force_first && s <= o->force_last && s > o->force_through &&
      (st = force_sample(o, c, msg, n)))
    return st;
  if (o->k_vtk && s % o->k_vtk == 0) {
    char *p = chute_file_path(o->dir, GC_CHUTE_FILE_PARTICLES, s / o->k_vtk);
    st = p ? gc_chute_write_vtk(c, 0, p, msg, n) : GC_ENOMEM;
    free(p);
    if (!st)
      st = chute_write_pvd(o, s / o->k_vtk, c->t, 0, msg, n);
    if (st)
      return st;
  }
  if (o->k_ckpt && s % o->k_ckpt == 0 && s > 0)
    return chute_out_checkpoint(o, c, msg, n);
  return GC_SUCCESS;
}

/* Open DIR/name for atomic writing (gc_outfile). */
static int open_output(const gc_chute_out *o, int file, gc_outfile *f, char *msg, size_t n)
{
  char *path = chute_file_path(o->dir, file, 0);
  if (!path) {
    snprintf(msg, n, "out of memory");
    return GC_ENOMEM;
  }
  int st = gc_outfile_open(f, path, msg, n);
  free(path);
  return st;
}

/* A note in a profile or force file written at a checkpoint at t (t < 0: the final file) */
static void partial_note(FILE *f, const gc_chute_out *o, double t)
{
  if (t >= 0)
    fprintf(f, "# so far: written at the checkpoint at t = %.9g s of a run to t_end = %.9g s\n", t,
            o->run.t_end);
}

/* Commit an output synced to the disk (sync = 1, at a checkpoint) or not */
static int commit_output(gc_outfile *f, int sync, char *msg, size_t n)
{
  int st = sync ? gc_outfile_sync(f, msg, n) : GC_SUCCESS;
  if (st) {
    gc_outfile_abort(f);
    return st;
  }
  return gc_outfile_commit(f, msg, n);
}

int chute_write_profile(const gc_chute_out *o, const profile *p, double partial, char *msg,
                        size_t n)
{
  gc_outfile f;
  int st = open_output(o, p->file, &f, msg, n);
  if (st)
    return st;
  const gc_chute_run *r = &o->run;
  fprintf(f.f, "# %s", p->what);
  if (p->top)
    fprintf(f.f, ": centres with y in [%g, %g) m", p->ylo, p->yhi);
  else if (p->both_walls)
    fprintf(f.f, ": centres within %g m of a side wall", p->zhi);
  else if (isfinite(p->zlo))
    fprintf(f.f, ": centres with z in [%g, %g) m", p->zlo, p->zhi);
  fprintf(f.f,
          "\n# averaged over %ld frames, t in [%g, %g] s; cells of %g m; n = samples in the "
          "cell (particle-frames)\n",
          o->frames, r->profile_start, r->profile_end, r->profile_cell);
  partial_note(f.f, o, partial);
  fprintf(f.f, "x [m],%s [m],vx [m/s],vy [m/s],vz [m/s],speed [m/s],n\n", p->top ? "z" : "y");
  size_t nx = gsl_histogram2d_nx(p->n), ny = gsl_histogram2d_ny(p->n);
  for (size_t i = 0; i < nx; i++)
    for (size_t j = 0; j < ny; j++) {
      double cnt = gsl_histogram2d_get(p->n, i, j);
      if (!(cnt > 0))
        continue;
      double xl, xh, yl, yh, v[3];
      gsl_histogram2d_get_xrange(p->n, i, &xl, &xh);
      gsl_histogram2d_get_yrange(p->n, j, &yl, &yh);
      for (int d = 0; d < 3; d++)
        v[d] = gsl_histogram2d_get(p->v[d], i, j) / cnt;
      fprintf(f.f, "%.6g,%.6g,%.8g,%.8g,%.8g,%.8g,%.0f\n", (xl + xh) / 2, (yl + yh) / 2, v[0], v[1],
              v[2], sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), cnt);
    }
  return commit_output(&f, partial >= 0, msg, n);
}

int chute_write_forces(const gc_chute_out *o, double partial, char *msg, size_t n)
{
  gc_outfile f;
  int st = open_output(o, GC_CHUTE_FILE_FORCES, &f, msg, n);
  if (st)
    return st;
  const double dt = o->run.sim.dt;
  double steps = o->force_steps_done > 0 ? (double)o->force_steps_done : 1.0;
  fprintf(f.f,
          "# normal contact forces over %zu steps, t in [%.6g, %.6g] s: %zu samples, mean "
          "%.6g contacts per step\n",
          o->force_steps_done, (double)o->force_first * dt, (double)o->force_last * dt, o->n_forces,
          (double)o->n_forces / steps);
  if (o->n_forces)
    fprintf(f.f, "# fraction <= 0.05 N: %.6f; <= 0.1 N: %.6f; above %g N: %zu (largest %.6g N)\n",
            (double)o->n_le005 / (double)o->n_forces, (double)o->n_le01 / (double)o->n_forces,
            o->run.forces_max, o->n_over, o->P_over_max);
  partial_note(f.f, o, partial);
  fprintf(f.f, "P_lo [N],P_hi [N],count,per_step,fraction,cumulative\n");
  /* cumulative distribution: running sum over the bins; the forces above the range count in
   * the fractions */
  size_t nb = gsl_histogram_bins(o->hist);
  double total = (double)o->n_forces;
  double cum = 0;
  for (size_t i = 0; i < nb; i++) {
    double lo, hi, cnt = gsl_histogram_get(o->hist, i);
    gsl_histogram_get_range(o->hist, i, &lo, &hi);
    cum += cnt;
    fprintf(f.f, "%.8g,%.8g,%.0f,%.8g,%.8g,%.8g\n", lo, hi, cnt, cnt / steps,
            total > 0 ? cnt / total : 0.0, total > 0 ? cum / total : 0.0);
  }
  if (o->n_over)
    fprintf(f.f, "%.8g,%.8g,%zu,%.8g,%.8g,%.8g\n", o->run.forces_max, o->P_over_max, o->n_over,
            (double)o->n_over / steps, (double)o->n_over / total, 1.0);
  return commit_output(&f, partial >= 0, msg, n);
}

void gc_chute_out_force_summary(const gc_chute_out *o, size_t *n, double *f005, double *f01,
                                double *mean_contacts)
{
  *n = o->n_forces;
  *f005 = o->n_forces ? (double)o->n_le005 / (double)o->n_forces : 0.0;
  *f01 = o->n_forces ? (double)o->n_le01 / (double)o->n_forces : 0.0;
  *mean_contacts = o->force_steps_done ? (double)o->n_forces / (double)o->force_steps_done : 0.0;
}

int gc_chute_out_finish(gc_chute_out *o, const gc_chute *c, char *msg, size_t n)
{
  int st = GC_SUCCESS;
  /* the final checkpoint before the final row off the series' grid: a run extended from it
   * writes the rows an uninterrupted run would */
  if (o->k_ckpt && c->step % o->k_ckpt != 0)
    st = chute_out_checkpoint(o, c, msg, n);
  if (!st && c->step != o->last_series_step && (st = series_row(o, c)))
    snprintf(msg, n, "%s/series.csv: write error", o->dir);
  for (int i = 0; !st && i < NPROF; i++)
    st = chute_write_profile(o, &o->prof[i], -1.0, msg, n);
  if (!st)
    st = chute_write_forces(o, -1.0, msg, n);
  if (!st && o->k_vtk && c->step % o->k_vtk != 0) { /* a last snapshot of the final state */
    char *p = chute_file_path(o->dir, GC_CHUTE_FILE_PARTICLES, c->step / o->k_vtk + 1);
    st = p ? gc_chute_write_vtk(c, 0, p, msg, n) : GC_ENOMEM;
    free(p);
    if (!st)
      st = chute_write_pvd(o, c->step / o->k_vtk + 1, c->t, 1, msg, n);
  }
  if (!st) {
    if (o->series_placed)
      st = chute_series_flush(o, msg, n);
    else {
      st = gc_outfile_commit(&o->series, msg, n);
      o->series_open = 0;
    }
  }
  if (st)
    gc_chute_out_abort(o);
  else
    out_free(o);
  return st;
}

void gc_chute_out_abort(gc_chute_out *o)
{
  if (!o)
    return;
  if (o->series_open)
    gc_outfile_abort(&o->series);
  out_free(o);
}

/* Empty series.csv's temporary and write the header again */
int chute_series_restart(gc_chute_out *o)
{
  if (fflush(o->series.f) != 0 || ftruncate(fileno(o->series.f), 0) != 0)
    return GC_EIO;
  rewind(o->series.f);
  o->series_bytes = 0;
  o->series_crc = (uint32_t)crc32(0L, Z_NULL, 0);
  o->sn = 0;
  o->last_series_step = -1;
  return chute_series_put(o, series_header, sizeof series_header - 1);
}

/* ================================================================ VTK */

/* particles.pvd: the ParaView collection of the snapshots 0..last (times frame k_vtk dt; the
 * last one at t_last), rewritten with every snapshot so that it is complete after a stop. */
int chute_write_pvd(const gc_chute_out *o, long last, double t_last, int last_off_grid, char *msg,
                    size_t n)
{
  char *p = chute_file_path(o->dir, GC_CHUTE_FILE_PVD, 0);
  if (!p)
    return GC_ENOMEM;
  gc_outfile f;
  int st = gc_outfile_open(&f, p, msg, n);
  free(p);
  if (st)
    return st;
  fprintf(f.f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
               "<Collection>\n");
  double dt = o->run.sim.dt;
  for (long k = 0; k <= last; k++) {
    double t = k == last && last_off_grid ? t_last : (double)k * (double)o->k_vtk * dt;
    fprintf(f.f, "<DataSet timestep=\"%.9g\" part=\"0\" file=\"particles_%06ld.vtk\"/>\n", t, k);
  }
  fprintf(f.f, "</Collection>\n</VTKFile>\n");
  if (ferror(f.f)) {
    snprintf(msg, n, "%s/particles.pvd: write error", o->dir);
    gc_outfile_abort(&f);
    return GC_EIO;
  }
  return gc_outfile_commit(&f, msg, n);
}

/* The sphere of row r of a VTK file: the beads in order, or the particles' spheres by particle
 * number (the arrays are in the spatial order of the last list build, which changes; a file
 * lists particle n's spheres at rows n nsph .. n nsph + nsph - 1 whatever it is) */
static size_t vtk_sphere(const gc_chute *c, int beads, size_t r)
{
  return beads ? c->np * c->nsph + r : c->index_of[r / c->nsph] * c->nsph + r % c->nsph;
}

/* The particle number of row r (-1 for a bead) */
static long vtk_particle(const gc_chute *c, int beads, size_t r)
{
  return beads ? -1L : (long)(r / c->nsph);
}

int gc_chute_write_vtk(const gc_chute *c, int beads, const char *path, char *msg, size_t n)
{
  gc_outfile f;
  int st = gc_outfile_open(&f, path, msg, n);
  if (st)
    return st;
  size_t count = beads ? c->nbeads : c->np * c->nsph;
  /* the beads do not move: their file is the bottom of the whole run, from its start */
  const double t = beads ? 0.0 : c->t;
  FILE *o = f.f;
  fprintf(o, "# vtk DataFile Version 3.0\ngranucal chute %s t = %.9g s\nASCII\nDATASET POLYDATA\n",
          beads ? "bottom beads" : "particle spheres", t);
  fprintf(o, "FIELD FieldData 1\nTIME 1 1 double\n%.9g\n", t);
  fprintf(o, "POINTS %zu double\n", count);
  for (size_t r = 0; r < count; r++) {
    const size_t i = vtk_sphere(c, beads, r);
    fprintf(o, "%.9g %.9g %.9g\n", c->sx[3 * i], c->sx[3 * i + 1], c->sx[3 * i + 2]);
  }
  fprintf(o, "VERTICES %zu %zu\n", count, 2 * count);
  for (size_t i = 0; i < count; i++)
    fprintf(o, "1 %zu\n", i);
  fprintf(o, "POINT_DATA %zu\nSCALARS radius double 1\nLOOKUP_TABLE default\n", count);
  for (size_t r = 0; r < count; r++)
    fprintf(o, "%.9g\n", c->sr[vtk_sphere(c, beads, r)]);
  fprintf(o, "SCALARS particle int 1\nLOOKUP_TABLE default\n");
  for (size_t r = 0; r < count; r++)
    fprintf(o, "%ld\n", vtk_particle(c, beads, r));
  /* the cluster (rigid particle) of each sphere, its sphere number in the cluster and the
   * cluster's orientation quaternion (q0 q1 q2 q3 as src/rigid.h; 1 0 0 0 for a bead), so that
   * ParaView can colour by cluster and orient glyphs */
  fprintf(o, "FIELD granucal 3\ncluster_id 1 %zu int\n", count);
  for (size_t r = 0; r < count; r++)
    fprintf(o, "%ld\n", vtk_particle(c, beads, r));
  fprintf(o, "sphere_in_cluster 1 %zu int\n", count);
  for (size_t r = 0; r < count; r++)
    fprintf(o, "%ld\n", beads ? -1L : (long)(r % c->nsph));
  fprintf(o, "orientation 4 %zu double\n", count);
  for (size_t r = 0; r < count; r++) {
    const size_t i = vtk_sphere(c, beads, r);
    const double *q = !beads && c->owner[i] >= 0 ? c->rot[c->owner[i]].q : NULL;
    fprintf(o, "%.9g %.9g %.9g %.9g\n", q ? q[0] : 1.0, q ? q[1] : 0.0, q ? q[2] : 0.0,
            q ? q[3] : 0.0);
  }
  fprintf(o, "VECTORS velocity double\n");
  for (size_t r = 0; r < count; r++) {
    const size_t i = vtk_sphere(c, beads, r);
    double v[3] = { 0, 0, 0 };
    if (!beads && c->owner[i] >= 0)
      gc_chute_point_velocity(c, (size_t)c->owner[i], c->sx + 3 * i, v);
    fprintf(o, "%.9g %.9g %.9g\n", v[0], v[1], v[2]);
  }
  if (ferror(o)) {
    snprintf(msg, n, "%s: write error", path);
    gc_outfile_abort(&f);
    return GC_EIO;
  }
  return gc_outfile_commit(&f, msg, n);
}
