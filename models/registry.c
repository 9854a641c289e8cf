/* registry.c - the table of all contact models, looked up by name. */
#include "gc_model.h"

#include <string.h>

extern const gc_model gc_model_hertz, gc_model_lsd, gc_model_tsuji, gc_model_walton_braun,
    gc_model_thornton, gc_model_md, gc_model_vqz, gc_model_ep;

static const gc_model *const models[] = {
  &gc_model_hertz, &gc_model_lsd, &gc_model_tsuji, &gc_model_walton_braun,
  &gc_model_thornton, &gc_model_md, &gc_model_vqz, &gc_model_ep,
};

size_t gc_model_count(void) { return sizeof models / sizeof models[0]; }

const gc_model *gc_model_at(size_t i) { return i < gc_model_count() ? models[i] : NULL; }

const gc_model *gc_model_lookup(const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < gc_model_count(); i++)
    if (strcmp(models[i]->name, name) == 0)
      return models[i];
  return NULL;
}
