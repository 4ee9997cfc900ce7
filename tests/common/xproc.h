/* xproc.h - the engine's exchange hooks (ns_tile_exchange) across R
 * "processes" without MPI, for the in-process exchange tests
 * (test_tiles2d_exchange, test_tiles2d_owned, test_rows_pn_exchange): the
 * processes are R POSIX threads of one test, each running the engine with
 * its own options; what they send each other passes through mailboxes in
 * memory (the post).
 *
 * A test's process struct starts with an ns_xp_proc (its first member), so
 * that the hooks below take the test's process as their user pointer. */
#ifndef NS_TEST_XPROC_H
#define NS_TEST_XPROC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ns_error.h"
#include "engine/ns_engine.h"
#include "game/ns_game.h"
#include "game/ns_table.h"

enum { NS_XP_MAXR = 4 };

/* The mailboxes: box[r][slot] holds a copy of some bytes for process r
 * (owned by the post until taken), under one lock; a take waits on cond. */
typedef struct ns_xp_post {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int ranks;
    int64_t slots;                      /* mailboxes of each process */
    unsigned char **box[NS_XP_MAXR];    /* ranks arrays of slots; owned */
    long sent;                          /* copies posted */
} ns_xp_post;

/* One process: its engine's options and exchange, and how it ended. */
typedef struct ns_xp_proc {
    ns_xp_post *p;
    int rank;
    const ns_game *g;
    ns_table *t;            /* in memory, or NULL (a sink); owned by the test */
    ns_engine_opts o;
    ns_tile_exchange x;
    uint64_t resume;        /* units done: a resume (0: a run from the start) */
    /* ns_xp_tile_sink: the cells the sink got and how often (n0 x n1, row
     * major; owned by the test) */
    uint32_t *vals;
    uint8_t *seen;
    int64_t n1;
    ns_err rc;              /* the engine's return and message */
    ns_error err;
} ns_xp_proc;

/* A post of ranks <= NS_XP_MAXR processes with slots empty mailboxes each.
 * 0, or -1 when memory is short (nothing is then left to free). */
int ns_xp_post_init(ns_xp_post *p, int ranks, int64_t slots);

/* Frees the mailboxes and the copies in them; returns how many copies were
 * left untaken. */
long ns_xp_post_free(ns_xp_post *p);

/* A copy of the bytes at data into mailbox slot of process to, or of every
 * process but from when to < 0, counted in sent. 0, or -1 when slot is out
 * of range or memory is short. */
int ns_xp_send(ns_xp_post *p, int from, int to, int64_t slot, const void *data, size_t bytes);

/* Waits until mailbox slot of process rank holds a copy, then moves its
 * bytes to out and empties the mailbox. 0, or -1 when slot is out of range. */
int ns_xp_recv(ns_xp_post *p, int rank, int64_t slot, void *out, size_t bytes);

/* ns_tile_exchange.mine: rows dealt cyclically (row mod ranks == rank). */
int ns_xp_mine(void *user, int64_t row);

/* ns_tile_exchange.recv that fails at once. */
int ns_xp_recv_fail(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals);

/* ns_engine_opts.tile_sink: each cell into vals and counted in seen. */
int ns_xp_tile_sink(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *v);

/* Runs procs[0 .. ranks) at once, each on a thread of its own
 * (ns_engine_resume with its resume units, rc and err set), and waits for
 * them. 0, or -1 when a thread could not start (those started are joined). */
int ns_xp_run(ns_xp_proc *const *procs, int ranks);

#endif
