/* ns_dist_tiles.h - the two-pile tile kernel (tiles2d) across the ranks of
 * an MPI job: the hooks of engine/ns_engine.h's ns_tile_exchange, with MPI.
 *
 * Tile rows are dealt to ranks cyclically: rank r computes the tile rows
 * i with i % size == r. Every rank runs the whole wavefront, receiving the
 * other ranks' tiles and replaying them into its line sets; each computed
 * tile goes to every other rank (non-blocking sends of a copy, tag = its
 * tile row, on a communicator of its own). Every rank so receives every
 * tile it did not compute: about (R-1)/R of the tiles computed (the
 * symmetric case: only tiles i <= j), 4 bytes a cell plus 16 bytes a tile,
 * and sends its own to R - 1 ranks. All MPI calls from the worker threads
 * go through one lock (MPI_THREAD_SERIALIZED is enough); a waiting receive
 * polls (MPI_Iprobe) and sleeps 20 us between polls.
 *
 * Checkpoints and resume: rank 0 holds the file and writes the job's
 * checkpoints (it has every tile of the anti-diagonals it reports); a
 * resume under any number of ranks has rank 0 replay the finished tiles
 * and send them on (ns_dist_tiles_resume). Test hook:
 * NS_DIST_TEST_DIE_AFTER_TILES=N kills rank NS_DIST_TEST_FAIL_RANK (default
 * 1) with SIGKILL after it sent its N-th tile.
 *
 * That is the replicated design: every rank keeps a single process's line
 * sets. Owned line sets (ns_dist_tiles_own, symmetric games) keep on each
 * rank only the blocks of lines its tiles use; between uses a block rests
 * at its home rank, packed, and a service thread per rank answers the
 * others' gets and takes their puts; computed tiles go to rank 0 only, or
 * with placed chunks (ns_dist_tiles_placing, streamed) only their placing
 * requests: each rank writes its own chunks into rank 0's file. */
#ifndef NS_DIST_TILES_H
#define NS_DIST_TILES_H

#include <stdint.h>

#include "core/ns_error.h"
#include "engine/ns_engine.h"

typedef struct ns_dist_tiles ns_dist_tiles;

/* A tile exchange over all ranks (collective: every rank calls it) for a
 * table of tile_rows rows of tiles of side tile (x0 / tile is a tile row, as
 * the engine's stream_unit() says); *x gets its hooks (x->user is the
 * returned object, borrowed by x). NULL with err set when MPI cannot give
 * MPI_THREAD_SERIALIZED, the rows do not fit MPI's tags, or out of memory;
 * in a build without MPI: NULL (NS_EINVAL). Free with ns_dist_tiles_free. */
ns_dist_tiles *ns_dist_tiles_new(int64_t tile_rows, int64_t tile, ns_tile_exchange *x, ns_error *err);

/* A resume of units_done finished tile anti-diagonals (before the engine
 * runs, the same units_done on every rank): rank 0 (x->holder) replays
 * them from its checkpoint and sends them; the other ranks' recv takes
 * them from rank 0. */
void ns_dist_tiles_resume(ns_dist_tiles *d, uint64_t units_done);

/* Deal the tile rows to the ranks `rows` at a time (cyclically: rank r
 * computes the rows i with (i / rows) mod ranks = r; default 1), before
 * the engine runs, the same on every rank. With owned line sets a block
 * of lines passes between two consecutive rows of one rank without a
 * message (it stays on the rank), so their traffic falls about rows-fold;
 * the row kernel keeps 1. */
void ns_dist_tiles_deal(ns_dist_tiles *d, int64_t rows);
int64_t ns_dist_tiles_dealt(const ns_dist_tiles *d);

/* Wait until every send of this rank is done (after the engine returned
 * with success; every rank received what it needed by then). */
ns_err ns_dist_tiles_finish(ns_dist_tiles *d, ns_error *err);

/* Bytes of tile values this rank sent (counted once per receiver) and
 * received, headers included. */
void ns_dist_tiles_bytes(const ns_dist_tiles *d, uint64_t *sent, uint64_t *received);

/* Owned line sets (the tile kernel's symmetric case, sym 1, and plain
 * case, sym 0: engine/ns_engine.h; tile_cols: the tile columns; every rank
 * calls it after ns_dist_tiles_new, before the engine runs): *x gets the
 * hooks acquire and
 * release, each block of lines rests at its home rank (block mod ranks)
 * between uses, and a service thread of this rank answers the other ranks'
 * gets and takes their puts while the kernel computes; computed tiles go
 * to rank 0 only (the holder: it takes every tile into its table or
 * sink; the others hold only their own). Not with a resume. NS_EINTERNAL
 * when the thread or the communicator cannot be had; in a build without
 * MPI: NS_EINVAL. ns_dist_tiles_finish then waits for every rank (the
 * others may still need the blocks resting here) and gathers the figures
 * of ns_dist_tiles_sets. */
ns_err ns_dist_tiles_own(ns_dist_tiles *d, ns_tile_exchange *x, int64_t tile_cols, int sym, ns_error *err);

/* What the owned line sets cost this rank (after ns_dist_tiles_finish). */
typedef struct ns_dist_sets {
    int owned;              /* 0: replicated line sets (the rest is 0) */
    uint64_t peak;          /* the most bytes of line sets this rank held
                               at once: the blocks the kernel had filled
                               (their whole lines) and the windows resting
                               here or received, counted by the hooks */
    uint64_t peak_max;      /* the largest peak of all ranks */
    uint64_t sent, received;/* bytes of line windows this rank sent and received */
    uint64_t sent_all;      /* bytes of line windows all ranks sent */
} ns_dist_sets;
void ns_dist_tiles_sets(const ns_dist_tiles *d, ns_dist_sets *s);

/* Placed chunks (owned line sets, a streamed table, more than one rank;
 * store/ns_h5.h, "placed chunks"): the ranks but 0 write the chunks of
 * their own tiles into rank 0's file. A rank but 0 hands each placing to
 * ns_dist_tiles_place (its tile sink, before the engine's send, which then
 * sends nothing); the request goes to rank 0 (tag = the tile row). Rank 0
 * takes no tile with its threads: ns_dist_tiles_placing sets the
 * exchange's gather (engine/ns_engine.h), so its engine computes its own
 * rows only, and its service thread takes the requests, places those of
 * the anti-diagonals the engine allows (the place hook) and sends the
 * replies back; the rank's service thread takes the reply, calls write
 * with the data it kept and tells rank 0 it is written; the engine's
 * gather waits after each range until every other rank's tile of it is
 * written (then rank 0 checkpoints). Before a rank says it is done
 * (ns_dist_tiles_finish) every placing of it is written and sync has run;
 * rank 0's finish so returns after every chunk is written. */
typedef struct ns_dist_place_hooks {
    /* rank 0 (its service thread): the reply (malloc'ed, the exchange
     * frees it) to a request */
    int (*place)(void *user, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes);
    /* the ranks but 0 (their service threads): the data of a placing
     * where its reply says */
    int (*write)(void *user, const void *data, size_t data_bytes, const void *reply, size_t reply_bytes);
    /* the ranks but 0: their writes on disk (before they are done) */
    int (*sync)(void *user);
    void *user;
} ns_dist_place_hooks;

/* Turn placing on (every rank, after ns_dist_tiles_own, before the engine
 * runs; h copied; x: the exchange's hooks, which get gather). */
ns_err ns_dist_tiles_placing(ns_dist_tiles *d, ns_tile_exchange *x, const ns_dist_place_hooks *h, ns_error *err);

/* A rank but 0: a placing of the computed tile (x0, y0); req and data
 * (malloc'ed) are the exchange's from the call on. Worker threads. Non-zero
 * on failure. */
int ns_dist_tiles_place(ns_dist_tiles *d, int64_t x0, int64_t y0, void *req, size_t req_bytes, void *data,
                        size_t data_bytes);

/* Owned line sets in memory (every rank, after ns_dist_tiles_own, before
 * the engine runs; bounds: the table's): rank 0's threads compute its own
 * rows only (x gets gather, engine/ns_engine.h) and its service thread
 * takes the other ranks' tiles (i <= j in the symmetric case, every one
 * in the plain case, as they send them to rank 0) and hands each to
 * take(user, x0, y0, nx, ny, vals) (the table: the tile, and its mirror in
 * the symmetric case; called on that thread, vals borrowed), those of the
 * anti-diagonals its engine allows; the engine's gather waits for them
 * after each range. The other ranks: nothing changes. */
ns_err ns_dist_tiles_gather_tiles(ns_dist_tiles *d, ns_tile_exchange *x, const int64_t bounds[2],
                                  int (*take)(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                                              const uint32_t *vals),
                                  void *user, ns_error *err);

/* Placed P/N rows (the row kernel, streamed, two or more ranks): each
 * block of rows is written into rank 0's file by the rank that sieved it.
 * In its rows sink, after the engine sent the block on, that rank asks
 * rank 0 for the places of the block's chunks (ns_dist_tiles_rows_ask:
 * the request of store/'s packer; *reply malloc'ed, the caller frees it),
 * writes them there and says so (ns_dist_tiles_rows_written: failure NULL,
 * or what failed); rank 0, in its rows sink for that block, answers
 * (ns_dist_tiles_rows_answer: place as ns_dist_place_hooks' place, then
 * waits for the note), so its next checkpoint finds the chunks written.
 * Blocking, on the engine's thread; turned on by every rank
 * (ns_dist_tiles_rows_placing, collective) before the engine runs. */
ns_err ns_dist_tiles_rows_placing(ns_dist_tiles *d, ns_error *err);
int ns_dist_tiles_rows_owner(const ns_dist_tiles *d, int64_t x0);
ns_err ns_dist_tiles_rows_ask(ns_dist_tiles *d, const void *req, size_t req_bytes, void **reply, size_t *reply_bytes,
                              ns_error *err);
ns_err ns_dist_tiles_rows_written(ns_dist_tiles *d, const char *failure, ns_error *err);
ns_err ns_dist_tiles_rows_answer(ns_dist_tiles *d, int64_t x0,
                                 int (*place)(void *user, const void *req, size_t req_bytes, void **reply,
                                              size_t *reply_bytes),
                                 void *user, ns_error *err);

/* Placings this rank made (rank 0: placed; the others: written). */
uint64_t ns_dist_tiles_placed(const ns_dist_tiles *d);

/* Free d (sends not finished are cancelled). NULL: nothing. */
void ns_dist_tiles_free(ns_dist_tiles *d);

#endif
