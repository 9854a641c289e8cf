/* fuzz_checkpoint.c - libFuzzer target: the chute checkpoint reader.  The first byte chooses
 * whether the input is read as it is (the CRC-32 must refuse almost everything) or with its
 * last 4 bytes replaced by the correct CRC-32, so that the parser behind the checksum (layout,
 * header, state blocks, neighbour list) is reached.  With GC_FUZZ_WRITE_SEED=FILE set, the
 * initialisation writes a valid checkpoint of the target's chute there (the seed). */
#include <zlib.h>

#include "chute.h"
#include "chute/chute_hooks.h"
#include "fuzz_common.h"

static gc_chute *chute;

static void make_chute(void)
{
  gc_chute_cfg cfg;
  char msg[512];
  gc_chute_cfg_soybean(&cfg);
  if (gc_shape_sphere(2.75e-3, 0.149e-3, &cfg.shape, msg, sizeof msg))
    abort();
  cfg.n_particles = 2;
  cfg.bottom = GC_BOTTOM_NONE;
  cfg.side_walls = 0;
  cfg.gravity = 0;
  cfg.length = cfg.width = cfg.fill_height = 0.03;
  cfg.threads = 1;
  if (gc_chute_alloc(&chute, &cfg, msg, sizeof msg))
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  make_chute();
  const char *seed = getenv("GC_FUZZ_WRITE_SEED");
  if (seed) {
    char msg[512];
    double x[6] = { 0.010, 0.010, 0.015, 0.0154, 0.010, 0.015 }, v[6] = { 0.5, 0, 0, -0.5, 0, 0 };
    if (gc_chute_place(chute, x, NULL, v, NULL, msg, sizeof msg))
      abort();
    for (int k = 0; k < 20; k++)
      if (gc_chute_step(chute, msg, sizeof msg))
        abort();
    if (gc_chute_checkpoint_write(chute, seed, msg, sizeof msg))
      abort();
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  int fix_crc = data[0] & 1;
  data++;
  size--;
  uint8_t *buf = malloc(size + 1);
  if (!buf)
    abort();
  memcpy(buf, data, size);
  if (fix_crc && size >= 4) {
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf, (uInt)(size - 4));
    memcpy(buf + size - 4, &crc, 4);
  }
  char msg[512];
  if (gc_chute_checkpoint_read_mem(chute, buf, size, "fuzz", msg, sizeof msg) == GC_SUCCESS) {
    /* an accepted state must step without a crash (an error status is fine) */
    (void)gc_chute_step(chute, msg, sizeof msg);
  } else if (!msg[0]) {
    abort();
  }
  free(buf);
  return 0;
}
