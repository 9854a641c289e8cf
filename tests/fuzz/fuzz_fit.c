/* fuzz_fit.c - libFuzzer target: `granucal fit` end to end (gc_cmd_fit, the command's own
 * code): the data readers, the solve, the verdict's profiles and their F quantile, the
 * identifiability analysis and its t quantile, the advice, the summary and the parameter file.
 *
 * The input is split at form feeds ('\f'): the first part is the material card (empty: the
 * bundled data/soybean/soybean.card), the next ones (at most GC_FUZZ_FIT_FILES) are data files,
 * whose kind (compression, drops, load path) the command tells by their headers.  A first card
 * line "#! OPTIONS" (a comment to the card reader) adds command-line options from a list that
 * leaves the evaluation budget to the target; the target appends a small one (--max-evals,
 * --max-iter) so that an input takes milliseconds, and its output file.
 *
 * Checked: the exit status is 0, 1 or 2; a run that exits 0 has written a parameter file that
 * the card reader reads back with finite values, and printed no NaN (standard error, where the
 * verdict and the summary go, is captured for each input; sanitizer reports still go to the
 * real standard error). */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <gsl/gsl_errno.h>
#include <sanitizer/common_interface_defs.h>

#include "cli.h"
#include "fuzz_common.h"
#include "gc_io.h"
#include "gc_model.h"

#define GC_FUZZ_FIT_FILES 4
#define GC_FUZZ_FIT_ARGS 48

static char soybean_card[600];
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
  snprintf(soybean_card, sizeof soybean_card, "%s/soybean/soybean.card", data);
  gc_fuzz_capture_init(&cap);
  return 0;
}

/* The options a "#!" line may give, and whether each takes a value.  Not: the budget (--max-evals,
 * --max-iter, --starts, --dt), the outputs (-o, --report), other files (-c, --compression,
 * --drops), -h, -q, -v (the summary must be printed to be checked). */
static int allowed_option(const char *t)
{
  static const char *const with_value[] = {
    "-m",       "-s",       "-A",     "--fix",           "--free",
    "--bounds", "--w-a",    "--w-e",  "--point-weights", "--eps",
    "--delta",  "--polish", "--seed", "--undetermined"
  };
  for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
    if (strcmp(t, with_value[i]) == 0)
      return 2;
  return strcmp(t, "--gravity") == 0 ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* the parts */
  const uint8_t *part[GC_FUZZ_FIT_FILES + 1];
  size_t len[GC_FUZZ_FIT_FILES + 1], nparts = 0;
  const uint8_t *p = data, *end = data + size;
  while (nparts < GC_FUZZ_FIT_FILES + 1) {
    const uint8_t *ff = memchr(p, '\f', (size_t)(end - p));
    part[nparts] = p;
    len[nparts++] = (size_t)((ff ? ff : end) - p);
    if (!ff)
      break;
    p = ff + 1;
  }
  char *args[GC_FUZZ_FIT_ARGS + 16];
  int argc = 0;
  char paths[GC_FUZZ_FIT_FILES + 2][600];
  args[argc++] = "fit";
  args[argc++] = "-c";
  if (len[0]) {
    snprintf(paths[0], sizeof paths[0], "%s", gc_fuzz_file("in.card", part[0], len[0]));
    args[argc++] = paths[0];
  } else {
    args[argc++] = soybean_card;
  }
  for (size_t i = 1; i < nparts; i++) {
    char name[32];
    snprintf(name, sizeof name, "data%zu.csv", i);
    snprintf(paths[i], sizeof paths[i], "%s", gc_fuzz_file(name, part[i], len[i]));
    args[argc++] = paths[i];
  }
  /* options of a "#!" first line of the card */
  char opts[512] = "";
  if (len[0] > 2 && part[0][0] == '#' && part[0][1] == '!') {
    const uint8_t *nl = memchr(part[0], '\n', len[0]);
    size_t ol = (size_t)((nl ? nl : part[0] + len[0]) - part[0]) - 2;
    if (ol >= sizeof opts)
      return 0;
    memcpy(opts, part[0] + 2, ol);
    opts[ol] = 0;
    if (memchr(opts, 0, ol) || strchr(opts, '/'))
      return 0;
    int need_value = 0;
    for (char *t = strtok(opts, " \t\r"); t; t = strtok(NULL, " \t\r")) {
      if (argc >= GC_FUZZ_FIT_ARGS)
        return 0;
      if (need_value) {
        need_value = 0;
      } else {
        int k = allowed_option(t);
        if (!k)
          return 0; /* an option outside the list, or a stray argument */
        need_value = k == 2;
      }
      args[argc++] = t;
    }
    if (need_value)
      return 0;
  }
  args[argc++] = "--max-evals";
  args[argc++] = "40";
  args[argc++] = "--max-iter";
  args[argc++] = "20";
  args[argc++] = "-o";
  char *out = paths[GC_FUZZ_FIT_FILES + 1];
  snprintf(out, sizeof paths[0], "%s", gc_fuzz_file("out.params", NULL, 0));
  unlink(out);
  args[argc++] = out;
  args[argc] = NULL;

  /* (getopt_long permutes args) */
  if (gc_fuzz_capture_run(&cap, "fuzz_fit", gc_cmd_fit, argc, args) != 0)
    return 0;

  /* success: what was printed, and the parameter file read back */
  gc_fuzz_capture_no_nan(&cap, "fuzz_fit");
  gc_params q;
  gc_card_extra x;
  char msg[512];
  gc_params_default(&q);
  gc_card_extra_default(&x);
  if (gc_card_read(out, &q, &x, msg, sizeof msg) != GC_SUCCESS) {
    fprintf(stderr, "fuzz_fit: exit 0, but its parameter file is refused: %s\n", msg);
    abort();
  }
  const double *v = (const double *)&q;
  for (size_t i = 0; i < offsetof(gc_params, reload) / sizeof(double); i++)
    if (!isfinite(v[i]))
      abort();
  return 0;
}
