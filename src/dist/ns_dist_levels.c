/* ns_dist_levels.c - the general engine's level exchange across MPI ranks
 * (ns_dist_levels.h). */
#include "dist/ns_dist_levels.h"

#include "dist/ns_dist.h"

#include <limits.h>
#include <stdlib.h>

#ifdef NS_MPI
#include <mpi.h>

struct ns_dist_levels {
    MPI_Comm comm;          /* a duplicate of MPI_COMM_WORLD */
    int rank, size;
    int *counts, *displs;   /* size entries each; owned */
    uint64_t sent, received, levels;
};

static int exchange(void *user, int64_t level, int *status, uint32_t *vals, uint64_t n, const uint64_t *first,
                    ns_error *err)
{
    ns_dist_levels *d = user;
    /* the worst status, the level (its largest and smallest: every rank
     * must be at the same one) and the highest failing rank */
    int64_t in[4] = {*status, level, -level, *status >= 2 ? d->rank : -1}, out[4];
    if (MPI_Allreduce(in, out, 4, MPI_INT64_T, MPI_MAX, d->comm) != MPI_SUCCESS) {
        ns_error_set(err, NS_EIO, "rank %d: MPI_Allreduce failed at level %lld", d->rank, (long long)level);
        return 1;
    }
    if (out[1] != -out[2]) {
        ns_error_set(err, NS_EINTERNAL, "rank %d at level %lld, another rank at level %lld: the ranks do not share "
                     "the same levels", d->rank, (long long)level, (long long)(out[1] != level ? out[1] : -out[2]));
        return 1;
    }
    *status = (int)out[0];
    if (*status >= 2) {
        ns_error_set(err, NS_EIO, "rank %d failed at level %lld", (int)out[3], (long long)level);
        return 0;
    }
    if (*status)
        return 0;
    if (n > INT_MAX) {
        ns_error_set(err, NS_EINVAL, "level %lld has %llu cells: more than MPI's counts reach (%d)", (long long)level,
                     (unsigned long long)n, INT_MAX);
        return 1;
    }
    for (int q = 0; q < d->size; q++) {
        d->counts[q] = (int)(first[q + 1] - first[q]);
        d->displs[q] = (int)first[q];
    }
    if (MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, vals, d->counts, d->displs, MPI_UINT32_T, d->comm) !=
        MPI_SUCCESS) {
        ns_error_set(err, NS_EIO, "rank %d: MPI_Allgatherv failed at level %lld", d->rank, (long long)level);
        return 1;
    }
    const uint64_t mine = (uint64_t)d->counts[d->rank];
    d->sent += mine * sizeof *vals * (uint64_t)(d->size - 1);
    d->received += (n - mine) * sizeof *vals;
    d->levels++;
    return 0;
}

ns_dist_levels *ns_dist_levels_new(ns_level_exchange *x, ns_error *err)
{
    ns_dist_levels *d = calloc(1, sizeof *d);
    if (!d) {
        ns_error_set(err, NS_ENOMEM, "rank %d: out of memory", ns_dist_rank());
        return NULL;
    }
    if (MPI_Comm_dup(MPI_COMM_WORLD, &d->comm) != MPI_SUCCESS) {
        free(d);
        ns_error_set(err, NS_EINTERNAL, "rank %d: MPI_Comm_dup failed", ns_dist_rank());
        return NULL;
    }
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
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
