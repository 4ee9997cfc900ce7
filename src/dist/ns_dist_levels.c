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

/* Each rank's header: its status, the level's low and high 32 bits, the
 * largest value of its block, rank 0's note (ns_dist_levels_set_note). */
enum { HEAD = 5 };

struct ns_dist_levels {
    MPI_Comm comm;          /* a duplicate of MPI_COMM_WORLD */
    int rank, size;
    int *counts, *displs;   /* size entries each; owned */
    uint32_t *heads;        /* HEAD * size; owned */
    uint8_t *buf;           /* the level's values at their width; owned */
    uint64_t cap;           /* bytes of buf */
    uint64_t sent, received, levels;
    uint64_t widths[3];     /* levels exchanged at 1, 2 and 4 bytes a value */
    uint64_t die_after;     /* test hook: > 0, this rank kills itself after so many exchanges */
    uint32_t (*note)(void *user, int64_t level);   /* rank 0's, or NULL */
    void *note_user;
    uint32_t noted;         /* rank 0's note of the last exchange that went well */
    int64_t noted_level;    /* its level; -1: none */
};

/* values[0 .. n) stored at w bytes each into out, or back (unpack) */
static void pack(const uint32_t *v, uint64_t n, int w, uint8_t *out)
{
    if (w == 1)
        for (uint64_t i = 0; i < n; i++)
            out[i] = (uint8_t)v[i];
    else if (w == 2)
        for (uint64_t i = 0; i < n; i++) {
            const uint16_t x = (uint16_t)v[i];
            memcpy(out + 2 * i, &x, 2);
        }
    else
        memcpy(out, v, (size_t)n * 4);
}

static void unpack(const uint8_t *in, uint64_t n, int w, uint32_t *v)
{
    if (w == 1)
        for (uint64_t i = 0; i < n; i++)
            v[i] = in[i];
    else if (w == 2)
        for (uint64_t i = 0; i < n; i++) {
            uint16_t x;
            memcpy(&x, in + 2 * i, 2);
            v[i] = x;
        }
    else
        memcpy(v, in, (size_t)n * 4);
}

/* Two collectives a level: MPI_Allgather of every rank's header, which
 * says whether every rank did its block (else no value moves), that all
 * are at the same level, and the level's largest value; then, when all
 * did, MPI_Allgatherv (in place) of the blocks at the narrowest width that
 * holds that value (1, 2 or 4 bytes a cell: the MPI type of that width,
 * so counts stay in cells). */
static int exchange(void *user, int64_t level, int *status, uint32_t *vals, uint64_t n, const uint64_t *first,
                    ns_error *err)
{
    ns_dist_levels *d = user;
    if (n > INT_MAX) {
        ns_error_set(err, NS_EINVAL, "rank %d: level %lld has %llu cells: more than MPI's counts reach (%d)", d->rank,
                     (long long)level, (unsigned long long)n, INT_MAX);
        return 1;
    }
    const uint64_t own = first[d->rank + 1] - first[d->rank];
    uint32_t big = 0;
    if (*status == 0)
        for (uint64_t i = first[d->rank]; i < first[d->rank + 1]; i++)
            big = vals[i] > big ? vals[i] : big;
    const uint32_t note = d->note ? d->note(d->note_user, level) : 0;
    const uint32_t head[HEAD] = {(uint32_t)*status, (uint32_t)((uint64_t)level & 0xFFFFFFFFu),
                                 (uint32_t)((uint64_t)level >> 32), big, note};
    d->noted_level = -1;
    if (MPI_Allgather(head, HEAD, MPI_UINT32_T, d->heads, HEAD, MPI_UINT32_T, d->comm) != MPI_SUCCESS) {
        ns_error_set(err, NS_EIO, "rank %d: MPI_Allgather failed at level %lld", d->rank, (long long)level);
        return 1;
    }
    int most = 0, failed = -1;
    big = 0;
    for (int q = 0; q < d->size; q++) {
        const uint32_t *h = d->heads + HEAD * q;
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
        big = h[3] > big ? h[3] : big;
    }
    *status = most;
    if (!most) {   /* rank 0's note, the same on every rank */
        d->noted = d->heads[4];
        d->noted_level = level;
    }
    if (most >= 2) {
        ns_error_set(err, NS_EIO, "rank %d failed at level %lld", failed, (long long)level);
        return 0;
    }
    if (most)
        return 0;
    const int w = big <= UINT8_MAX ? 1 : big <= UINT16_MAX ? 2 : 4;
    const MPI_Datatype type = w == 1 ? MPI_UINT8_T : w == 2 ? MPI_UINT16_T : MPI_UINT32_T;
    if (n * (uint64_t)w > d->cap) {
        uint8_t *b = realloc(d->buf, (size_t)(n * (uint64_t)w));
        if (!b) {
            ns_error_set(err, NS_ENOMEM, "rank %d: out of memory for the values of level %lld", d->rank,
                         (long long)level);
            return 1;
        }
        d->buf = b;
        d->cap = n * (uint64_t)w;
    }
    for (int q = 0; q < d->size; q++) {
        d->counts[q] = (int)(first[q + 1] - first[q]);
        d->displs[q] = (int)first[q];
    }
    pack(vals + first[d->rank], own, w, d->buf + first[d->rank] * (uint64_t)w);
    if (MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d->buf, d->counts, d->displs, type, d->comm) !=
        MPI_SUCCESS) {
        ns_error_set(err, NS_EIO, "rank %d: MPI_Allgatherv failed at level %lld", d->rank, (long long)level);
        return 1;
    }
    for (int q = 0; q < d->size; q++)
        if (q != d->rank && first[q + 1] > first[q])
            unpack(d->buf + first[q] * (uint64_t)w, first[q + 1] - first[q], w, vals + first[q]);
    d->sent += own * (uint64_t)w * (uint64_t)(d->size - 1);
    d->received += (n - own) * (uint64_t)w;
    d->widths[w == 1 ? 0 : w == 2 ? 1 : 2]++;
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
    d->heads = calloc((size_t)d->size * HEAD, sizeof *d->heads);
    if (!d->counts || !d->displs || !d->heads) {
        ns_dist_levels_free(d);
        ns_error_set(err, NS_ENOMEM, "rank %d: out of memory", ns_dist_rank());
        return NULL;
    }
    d->noted_level = -1;
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

void ns_dist_levels_widths(const ns_dist_levels *d, uint64_t widths[3])
{
    memcpy(widths, d->widths, sizeof d->widths);
}

void ns_dist_levels_set_note(ns_dist_levels *d, uint32_t (*note)(void *user, int64_t level), void *user)
{
    d->note = note;
    d->note_user = user;
}

int64_t ns_dist_levels_noted(const ns_dist_levels *d, uint32_t *note)
{
    *note = d->noted_level >= 0 ? d->noted : 0;
    return d->noted_level;
}

void ns_dist_levels_free(ns_dist_levels *d)
{
    if (!d)
        return;
    MPI_Comm_free(&d->comm);
    free(d->counts);
    free(d->displs);
    free(d->heads);
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

void ns_dist_levels_widths(const ns_dist_levels *d, uint64_t widths[3])
{
    (void)d;
    widths[0] = widths[1] = widths[2] = 0;
}

void ns_dist_levels_set_note(ns_dist_levels *d, uint32_t (*note)(void *user, int64_t level), void *user)
{
    (void)d;
    (void)note;
    (void)user;
}

int64_t ns_dist_levels_noted(const ns_dist_levels *d, uint32_t *note)
{
    (void)d;
    *note = 0;
    return -1;
}

void ns_dist_levels_free(ns_dist_levels *d)
{
    free(d);
}

#endif
