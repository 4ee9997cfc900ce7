/* ns_dist_levels.c - the general engine's level exchange across MPI ranks
 * (ns_dist_levels.h). */
#include "dist/ns_dist_levels.h"

#include "dist/ns_dist.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef NS_MPI
#include <mpi.h>
#include <signal.h>

#include "dist/ns_dist_world.h"

/* Each rank's part of the gathered buffer: a header of HEAD words (status,
 * the level's low and high 32 bits), then its block's values. */
enum { HEAD = 3 };

struct ns_dist_levels {
    MPI_Comm comm;          /* a duplicate of MPI_COMM_WORLD */
    int rank, size;
    int *counts, *displs;   /* size entries each; owned */
    uint32_t *buf;          /* HEAD * size + the level's values; owned */
    uint64_t cap;
    uint64_t sent, received, levels;
    uint64_t die_after;     /* test hook: > 0, this rank kills itself after so many exchanges */
};

/* One collective a level: MPI_Allgatherv of every rank's header and block
 * (in place); the headers say whether every rank did its block (else the
 * values are not used) and that all are at the same level. */
static int exchange(void *user, int64_t level, int *status, uint32_t *vals, uint64_t n, const uint64_t *first,
                    ns_error *err)
{
    ns_dist_levels *d = user;
    const uint64_t total = n + (uint64_t)HEAD * (uint64_t)d->size;
    if (total > INT_MAX) {
        ns_error_set(err, NS_EINVAL, "rank %d: level %lld has %llu cells: more than MPI's counts reach (%d)", d->rank,
                     (long long)level, (unsigned long long)n, INT_MAX);
        return 1;
    }
    if (total > d->cap) {
        uint32_t *b = realloc(d->buf, (size_t)total * sizeof *b);
        if (!b) {
            ns_error_set(err, NS_ENOMEM, "rank %d: out of memory for the values of level %lld", d->rank,
                         (long long)level);
            return 1;
        }
        d->buf = b;
        d->cap = total;
    }
    for (int q = 0; q < d->size; q++) {
        d->counts[q] = HEAD + (int)(first[q + 1] - first[q]);
        d->displs[q] = HEAD * q + (int)first[q];
    }
    uint32_t *mine = d->buf + d->displs[d->rank];
    const uint64_t own = first[d->rank + 1] - first[d->rank];
    mine[0] = (uint32_t)*status;
    mine[1] = (uint32_t)((uint64_t)level & 0xFFFFFFFFu);
    mine[2] = (uint32_t)((uint64_t)level >> 32);
    if (*status == 0 && own)
        memcpy(mine + HEAD, vals + first[d->rank], (size_t)own * sizeof *vals);
    if (MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d->buf, d->counts, d->displs, MPI_UINT32_T, d->comm) !=
        MPI_SUCCESS) {
        ns_error_set(err, NS_EIO, "rank %d: MPI_Allgatherv failed at level %lld", d->rank, (long long)level);
        return 1;
    }
    int most = 0, failed = -1;
    for (int q = 0; q < d->size; q++) {
        const uint32_t *h = d->buf + d->displs[q];
        const int64_t lq = (int64_t)((uint64_t)h[1] | (uint64_t)h[2] << 32);
        if (lq != level) {
            ns_error_set(err, NS_EINTERNAL, "rank %d at level %lld, rank %d at level %lld: the ranks do not share the "
                         "same levels", d->rank, (long long)level, q, (long long)lq);
            return 1;
        }
        if ((int)h[0] > most)
            most = (int)h[0];
        if (h[0] >= 2 && failed < 0)
            failed = q;
    }
    *status = most;
    if (most >= 2) {
        ns_error_set(err, NS_EIO, "rank %d failed at level %lld", failed, (long long)level);
        return 0;
    }
    if (most)
        return 0;
    for (int q = 0; q < d->size; q++)
        if (q != d->rank && first[q + 1] > first[q])
            memcpy(vals + first[q], d->buf + d->displs[q] + HEAD, (size_t)(first[q + 1] - first[q]) * sizeof *vals);
    d->sent += own * sizeof *vals * (uint64_t)(d->size - 1);
    d->received += (n - own) * sizeof *vals;
    /* test hook: a rank that dies mid-run (NS_DIST_TEST_DIE_AFTER_LEVELS) */
    if (++d->levels == d->die_after)
        raise(SIGKILL);
    return 0;
}

ns_dist_levels *ns_dist_levels_new(ns_level_exchange *x, ns_error *err)
{
    ns_dist_levels *d = calloc(1, sizeof *d);
    if (!d) {
        ns_error_set(err, NS_ENOMEM, "rank %d: out of memory", ns_dist_rank());
        return NULL;
    }
    if (ns_dist_world_dup(&d->comm, &d->rank, &d->size, err)) {
        free(d);
        return NULL;
    }
    d->counts = calloc((size_t)d->size, sizeof *d->counts);
    d->displs = calloc((size_t)d->size, sizeof *d->displs);
    if (!d->counts || !d->displs) {
        ns_dist_levels_free(d);
        ns_error_set(err, NS_ENOMEM, "rank %d: out of memory", ns_dist_rank());
        return NULL;
    }
    x->exchange = exchange;
    x->user = d;
    x->rank = d->rank;
    x->ranks = d->size;
    /* test hook: NS_DIST_TEST_DIE_AFTER_LEVELS=N: rank NS_DIST_TEST_FAIL_RANK
     * (default 1) raises SIGKILL after its N-th exchange */
    d->die_after = ns_dist_test_die_after("NS_DIST_TEST_DIE_AFTER_LEVELS", d->rank);
    return d;
}

void ns_dist_levels_bytes(const ns_dist_levels *d, uint64_t *sent, uint64_t *received, uint64_t *levels)
{
    *sent = d->sent;
    *received = d->received;
    *levels = d->levels;
}

void ns_dist_levels_free(ns_dist_levels *d)
{
    if (!d)
        return;
    MPI_Comm_free(&d->comm);
    free(d->counts);
    free(d->displs);
    free(d->buf);
    free(d);
}

#else /* one process: no exchange */

struct ns_dist_levels {
    int unused;
};

ns_dist_levels *ns_dist_levels_new(ns_level_exchange *x, ns_error *err)
{
    (void)x;
    ns_error_set(err, NS_EINVAL, "a level exchange needs an MPI build (-DNS_MPI=ON)");
    return NULL;
}

void ns_dist_levels_bytes(const ns_dist_levels *d, uint64_t *sent, uint64_t *received, uint64_t *levels)
{
    (void)d;
    *sent = *received = *levels = 0;
}

void ns_dist_levels_free(ns_dist_levels *d)
{
    free(d);
}

#endif
