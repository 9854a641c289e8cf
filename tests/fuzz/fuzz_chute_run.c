/* fuzz_chute_run.c - libFuzzer target: a chute card run by `granucal chute` (gc_cmd_chute, the
 * command's own code) for a short time: the card reader, the laws of the three material pairs,
 * the placement, the steps, the outputs (series, profiles, force statistics, snapshots,
 * checkpoints) and the summary.  The bundled particle and material files are reachable from
 * the card's directory as in data/chute/ (as in fuzz_chute_card.c).
 *
 * A card the reader accepts is run with at most GC_FUZZ_CHUTE_NP particles and
 * GC_FUZZ_CHUTE_STEPS steps (--set n_particles and t_end when the card asks for more), into a
 * scratch directory emptied for each input; a card whose domain would take more than
 * GC_FUZZ_CHUTE_BYTES or GC_FUZZ_CHUTE_BEADS bottom beads is left out, so that an input takes
 * milliseconds.
 *
 * Checked: the exit status is 0, 1 or 2; a run that exits 0 printed no NaN (standard error is
 * captured for each input; sanitizer reports still go to the real standard error) and left
 * no NaN in its CSV outputs and no temporary file in its directory. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <gsl/gsl_errno.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/stat.h>

#include "chute.h"
#include "chute_io.h"
#include "cli.h"
#include "fuzz_common.h"

#define GC_FUZZ_CHUTE_NP 6
#define GC_FUZZ_CHUTE_STEPS 200
#define GC_FUZZ_CHUTE_BYTES (64.0 * 1024 * 1024)
#define GC_FUZZ_CHUTE_BEADS 400

/* Bottom beads the card asks for.  A random bottom costs ~400 placement trials and ~400 points
 * of its largest-hole search per bead (chute_bottom.c): 2000 beads take seconds under the
 * sanitizers. */
static double beads_of(const gc_chute_cfg *c)
{
  double area = c->length * c->width, r = c->bead_radius;
  if (c->bottom == GC_BOTTOM_BEADS) {
    double s = fmax(c->bead_spacing, 2 * r);
    return area / (s * s * 0.8660254037844386);
  }
  return c->bottom == GC_BOTTOM_RANDOM ? c->bead_coverage * area / (M_PI * r * r) : 0.0;
}

static char carddir[600], outdir[600];
static gc_fuzz_capture cap;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  /* as the granucal command's main(): a GSL failure is a status, never an abort */
  gsl_set_error_handler_off();
  const char *data = getenv("GC_DATADIR");
  if (!data)
    data = GC_FUZZ_DATADIR;
  const char *base = gc_fuzz_capture_init(&cap);
  char root[512];
  snprintf(root, sizeof root, "%.*s", (int)(strrchr(base, '/') - base), base);
  char a[1200], b[1200];
  snprintf(carddir, sizeof carddir, "%s/chute", root);
  snprintf(outdir, sizeof outdir, "%s/out", root);
  mkdir(carddir, 0700);
  snprintf(a, sizeof a, "%s/chute/soybean.params", data);
  snprintf(b, sizeof b, "%s/soybean.params", carddir);
  (void)symlink(a, b);
  snprintf(a, sizeof a, "%s/materials", data);
  snprintf(b, sizeof b, "%s/materials", root);
  (void)symlink(a, b);
  return 0;
}

/* The contents of a file (malloc'ed, NUL-terminated; *n its length), NULL if unreadable. */
static char *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t cap = 0;
  *n = 0;
  for (;;) {
    if (*n + 4096 + 1 > cap) {
      cap = 2 * cap + 4096 + 1;
      char *nb = realloc(buf, cap);
      if (!nb)
        abort();
      buf = nb;
    }
    size_t r = fread(buf + *n, 1, 4096, f);
    *n += r;
    if (r < 4096)
      break;
  }
  fclose(f);
  buf[*n] = 0;
  return buf;
}

/* Empty the output directory (its files only: the command makes no subdirectories); with
 * check = 1, first abort on a temporary file or a NaN in a CSV. */
static void clean_outdir(int check)
{
  DIR *d = opendir(outdir);
  if (!d)
    return;
  struct dirent *e;
  char path[1200];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", outdir, e->d_name);
    if (check) {
      size_t l = strlen(e->d_name);
      if (strstr(e->d_name, ".tmp")) {
        fprintf(stderr, "fuzz_chute_run: exit 0, but a temporary is left: %s\n", path);
        abort();
      }
      if (l > 4 && strcmp(e->d_name + l - 4, ".csv") == 0) {
        size_t n;
        char *text = slurp(path, &n);
        if (!text || gc_fuzz_has_nan(text, n)) {
          fprintf(stderr, "fuzz_chute_run: exit 0, but %s %s\n", path,
                  text ? "holds a NaN" : "cannot be read");
          abort();
        }
        free(text);
      }
    }
    if (unlink(path) != 0)
      abort();
  }
  closedir(d);
  rmdir(outdir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char path[700];
  snprintf(path, sizeof path, "%s/in.chute", carddir);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
  gc_chute_run *run = malloc(sizeof *run);
  char msg[1024];
  if (!run)
    abort();
  /* the card as the command reads it (refusals are fuzz_chute_card's part), then its size
   * capped by --set */
  char set_np[64] = "", set_t[64] = "";
  char *sets[2];
  size_t nsets = 0;
  if (gc_chute_run_load(path, NULL, 0, run, msg, sizeof msg) != GC_SUCCESS) {
    free(run);
    return 0;
  }
  if (run->sim.n_particles > GC_FUZZ_CHUTE_NP) {
    snprintf(set_np, sizeof set_np, "n_particles=%d", GC_FUZZ_CHUTE_NP);
    sets[nsets++] = set_np;
  }
  if (run->n_steps > GC_FUZZ_CHUTE_STEPS) {
    snprintf(set_t, sizeof set_t, "t_end=%.17g", GC_FUZZ_CHUTE_STEPS * run->sim.dt);
    sets[nsets++] = set_t;
  }
  int small = gc_chute_run_load(path, sets, nsets, run, msg, sizeof msg) == GC_SUCCESS &&
              gc_chute_memory_estimate(&run->sim) <= GC_FUZZ_CHUTE_BYTES &&
              beads_of(&run->sim) <= GC_FUZZ_CHUTE_BEADS && run->n_steps <= 2 * GC_FUZZ_CHUTE_STEPS;
  free(run);
  if (!small)
    return 0;

  char *args[16];
  int argc = 0;
  args[argc++] = "chute";
  args[argc++] = "-o";
  args[argc++] = outdir;
  for (size_t i = 0; i < nsets; i++) {
    args[argc++] = "-s";
    args[argc++] = sets[i];
  }
  args[argc++] = path;
  args[argc] = NULL;
  clean_outdir(0);
  int rc = gc_fuzz_capture_run(&cap, "fuzz_chute_run", gc_cmd_chute, argc, args);
  if (rc == 0)
    gc_fuzz_capture_no_nan(&cap, "fuzz_chute_run");
  clean_outdir(rc == 0);
  return 0;
}
