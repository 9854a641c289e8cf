/* fuzz_chute_card.c - libFuzzer target: the chute card (gc_chute_run_load), with the bundled
 * particle and material files reachable from the card's directory as in data/chute/.  An
 * accepted card has a time step within the rule of timestep.h and whole steps to t_end. */
#include <math.h>
#include <sys/stat.h>

#include "chute_io.h"
#include "fuzz_common.h"
#include "timestep.h"

static char carddir[600];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  const char *data = getenv("GC_DATADIR");
  if (!data)
    data = GC_FUZZ_DATADIR;
  const char *base = gc_fuzz_file("x", (const uint8_t *)"", 0);
  char root[512];
  snprintf(root, sizeof root, "%.*s", (int)(strrchr(base, '/') - base), base);
  char a[1200], b[1200];
  snprintf(carddir, sizeof carddir, "%s/chute", root);
  mkdir(carddir, 0700);
  snprintf(a, sizeof a, "%s/chute/soybean.params", data);
  snprintf(b, sizeof b, "%s/soybean.params", carddir);
  (void)symlink(a, b);
  snprintf(a, sizeof a, "%s/materials", data);
  snprintf(b, sizeof b, "%s/materials", root);
  (void)symlink(a, b);
  return 0;
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
  if (gc_chute_run_load(path, NULL, 0, run, msg, sizeof msg) == GC_SUCCESS) {
    if (!(run->sim.dt > 0) || !isfinite(run->sim.dt) || run->n_steps < 1 ||
        run->sim.dt > run->t_contact / GC_DT_REFUSE_NTCOL)
      abort();
  } else if (!msg[0]) {
    abort();
  }
  free(run);
  return 0;
}
