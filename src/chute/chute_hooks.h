/* chute_hooks.h - functions of the chute simulator (chute.h) that only the tests and the fuzz
 * targets call: self-checks of the step's invariants and a checkpoint read from memory. */
#ifndef GC_CHUTE_HOOKS_H
#define GC_CHUTE_HOOKS_H

#include "../chute.h"

/* Self-check for the tests: the number of wall records whose flag in the step's workspace
 * (may the record hold a state; the step passes over a particle's walls when none does and
 * none is within reach) disagrees with the record itself.  0 in a consistent state, whatever
 * the renumberings since the placement or the checkpoint read. */
size_t gc_chute_check_wall_flags(const gc_chute *c);
/* Self-check for the tests: the number of listed pairs whose record does not hold what the
 * last step's contact law left at the sphere positions sx_prev (3 ns, c->sx copied before
 * that step, which must not have rebuilt the list): an overlap alpha > 0 there must be the
 * record's alpha, flagged as a state to reset when apart; a pair apart must have been reset
 * (no force, overlap or, unless cfg.keep_history, history) and not flagged.  0 when the step
 * visited every pair it had to, whatever it passed over. */
size_t gc_chute_check_pair_records(const gc_chute *c, const double *sx_prev);
/* Self-check for the tests: the number of listed pairs whose gap at the current sphere
 * positions is below what the step's skip test assumes (its apart_until less the path bounds
 * of its two spheres, which must have grown by at least what the spheres moved since the
 * pair was looked at).  0 after every step, whether the pair touches or not. */
size_t gc_chute_check_skip_bounds(const gc_chute *c);
/* Self-check for the tests: 1 if the spheres have moved past the list's displacement criterion
 * in the step's drift frame (gc_nlist_needs_rebuild_shifted with the beads fixed), so that the
 * last step should have rebuilt the list; 0 after every step. */
int gc_chute_check_past_skin(const gc_chute *c);
/* Self-check for the tests, independent of the criterion: the number of pairs of spheres of
 * two particles, or of a particle and a bead, that overlap (minimum image along the periodic
 * axes) but are not in the neighbour list, by testing every such pair (O(ns^2)); 0 after
 * every step. */
size_t gc_chute_check_list_complete(const gc_chute *c);

/* The same from an image in memory (len bytes; name for the messages): for the bit-flip test
 * and the fuzz target. */
int gc_chute_checkpoint_read_mem(gc_chute *c, const void *data, size_t len, const char *name,
                                 char *msg, size_t msglen);

#endif
