/* ns_dist_levels.h - the general engine (level sieve) across the ranks of
 * an MPI job: the hook of engine/ns_engine.h's ns_level_exchange, with MPI.
 *
 * Every rank keeps the whole table and all line and running sets; of each
 * shared level it computes a contiguous block (the engine's rank_block),
 * then the ranks meet: an MPI_Allgather (on a communicator of its own) of
 * every rank's header (its status, the level, its block's largest value
 * and rank 0's note: 20 bytes), then, when every rank did its block and all are at the
 * same level, one MPI_Allgatherv (in place) of the blocks' values at the
 * narrowest width that holds the level's largest value (1, 2 or 4 bytes a
 * cell), copied into the engine's array. Every rank so receives (R-1)/R
 * of each shared level's cells and sends its 1/R to R - 1 ranks. Called by the engine's thread 0 (the
 * thread that started MPI: MPI_THREAD_FUNNELED suffices). Checkpoints
 * and resume need nothing here: every rank holds the whole state after a
 * level (the CLI has every rank write its share of the checkpoint, rank 0
 * deciding when; a resume's table goes from rank 0 to the others with
 * ns_dist_bcast_bytes). Test hook:
 * NS_DIST_TEST_DIE_AFTER_LEVELS=N kills rank NS_DIST_TEST_FAIL_RANK
 * (default 1) with SIGKILL after its N-th exchange. */
#ifndef NS_DIST_LEVELS_H
#define NS_DIST_LEVELS_H

#include <stdint.h>

#include "core/ns_error.h"
#include "engine/ns_engine.h"

typedef struct ns_dist_levels ns_dist_levels;

/* A level exchange over all ranks (collective: every rank calls it); *x
 * gets its hook (x->user is the returned object, borrowed by x). NULL with
 * err set when out of memory or MPI fails; in a build without MPI: NULL
 * (NS_EINVAL). Free with ns_dist_levels_free. */
ns_dist_levels *ns_dist_levels_new(ns_level_exchange *x, ns_error *err);

/* Bytes of cell values this rank sent (counted once per receiver) and
 * received, and the exchanges (shared levels) so far. */
void ns_dist_levels_bytes(const ns_dist_levels *d, uint64_t *sent, uint64_t *received, uint64_t *levels);

/* The shared levels whose values went at 1, 2 and 4 bytes a cell. */
void ns_dist_levels_widths(const ns_dist_levels *d, uint64_t widths[3]);

/* Rank 0's note: at every exchange rank 0 calls note(user, level) (on the
 * engine's thread 0, before the ranks meet) and its word travels in rank
 * 0's header, so that every rank learns it at the same level with no
 * meeting of its own (the CLI: whether a checkpoint is due or a stop).
 * Set on rank 0 only; NULL: no note (0). */
void ns_dist_levels_set_note(ns_dist_levels *d, uint32_t (*note)(void *user, int64_t level), void *user);

/* The level of the last exchange, when every rank did its block (else -1),
 * and rank 0's note there in *note (0 with -1). */
int64_t ns_dist_levels_noted(const ns_dist_levels *d, uint32_t *note);

/* Free d. NULL: nothing. */
void ns_dist_levels_free(ns_dist_levels *d);

#endif
