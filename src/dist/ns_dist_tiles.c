/* ns_dist_tiles.c - the tile kernel's exchange across MPI ranks
 * (ns_dist_tiles.h). */
#include "dist/ns_dist_tiles.h"

#include "dist/ns_dist.h"

#include <stdlib.h>
#include <string.h>

#ifdef NS_MPI
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

/* one computed tile on its way to every other rank */
typedef struct msg {
    unsigned char *buf;     /* header (x0, y0) and the values; owned */
    MPI_Request *req;       /* size - 1 requests; owned */
    int nreq;
    struct msg *next;
} msg;

struct ns_dist_tiles {
    MPI_Comm comm;          /* a duplicate of MPI_COMM_WORLD: our tags only */
    int rank, size;
    int64_t rows, tile;
    pthread_mutex_t lock;   /* every MPI call of the hooks */
    msg *pending;           /* sends not known to be done */
    uint64_t sent, received;
    int64_t resumed;        /* anti-diagonals of a resume: their tiles come from rank 0 */
    int64_t die_after;      /* test hook: > 0, this rank kills itself after so many sends */
    int64_t nsent;          /* tiles sent */
};

static void msg_free(msg *m)
{
    free(m->buf);
    free(m->req);
    free(m);
}

/* drop the sends that are done (under the lock) */
static void reap(ns_dist_tiles *d)
{
    for (msg **p = &d->pending; *p;) {
        msg *m = *p;
        int done = 0;
        MPI_Testall(m->nreq, m->req, &done, MPI_STATUSES_IGNORE);
        if (!done) {
            p = &m->next;
            continue;
        }
        *p = m->next;
        msg_free(m);
    }
}

static int mine(void *user, int64_t row)
{
    const ns_dist_tiles *d = user;
    return row % d->size == d->rank;
}

static int send_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, const uint32_t *vals)
{
    ns_dist_tiles *d = user;
    if (d->size == 1)
        return 0;
    const size_t bytes = 2 * sizeof(int64_t) + (size_t)nx * (size_t)ny * sizeof *vals;
    msg *m = calloc(1, sizeof *m);
    if (!m)
        return 1;
    m->buf = malloc(bytes);
    m->req = malloc((size_t)(d->size - 1) * sizeof *m->req);
    if (!m->buf || !m->req) {
        msg_free(m);
        return 1;
    }
    const int64_t head[2] = {x0, y0};
    memcpy(m->buf, head, sizeof head);
    memcpy(m->buf + sizeof head, vals, bytes - sizeof head);
    int rc = 0;
    pthread_mutex_lock(&d->lock);
    for (int r = 0; r < d->size && !rc; r++) {
        if (r == d->rank)
            continue;
        rc = MPI_Isend(m->buf, (int)bytes, MPI_BYTE, r, (int)(x0 / d->tile), d->comm, &m->req[m->nreq]) !=
             MPI_SUCCESS;
        if (!rc) {
            m->nreq++;
            d->sent += bytes;
        }
    }
    m->next = d->pending;
    d->pending = m;
    reap(d);
    /* test hook: a rank that dies mid-run (NS_DIST_TEST_DIE_AFTER_TILES) */
    if (++d->nsent == d->die_after)
        raise(SIGKILL);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

/* blocking: the tile (x0, y0) from the rank of its row; the messages of
 * a row come in column order (one sender thread a row, MPI's order) */
static int recv_tile(void *user, int64_t x0, int64_t y0, int64_t nx, int64_t ny, uint32_t *vals)
{
    ns_dist_tiles *d = user;
    const int64_t row = x0 / d->tile;
    /* a resume's finished tiles come from rank 0, which holds them */
    const int src = row + y0 / d->tile < d->resumed ? 0 : (int)(row % d->size), tag = (int)row;
    const size_t bytes = 2 * sizeof(int64_t) + (size_t)nx * (size_t)ny * sizeof *vals;
    unsigned char *buf = malloc(bytes);
    if (!buf)
        return 1;
    int rc = 0;
    for (int polls = 0;; polls++) {
        int flag = 0, count = 0;
        MPI_Status st;
        pthread_mutex_lock(&d->lock);
        if (MPI_Iprobe(src, tag, d->comm, &flag, &st) != MPI_SUCCESS)
            rc = 1;
        else if (flag) {
            MPI_Get_count(&st, MPI_BYTE, &count);
            rc = (size_t)count != bytes ||
                 MPI_Recv(buf, count, MPI_BYTE, src, tag, d->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
            if (!rc)
                d->received += bytes;
        }
        if (polls % 64 == 0)
            reap(d);
        pthread_mutex_unlock(&d->lock);
        if (rc || flag)
            break;
        if (polls > 16)
            nanosleep(&(struct timespec){0, 20000}, NULL);
    }
    int64_t head[2];
    memcpy(head, buf, sizeof head);
    if (!rc && (head[0] != x0 || head[1] != y0))
        rc = 1; /* out of order: cannot happen with one sender thread a row */
    if (!rc)
        memcpy(vals, buf + sizeof head, bytes - sizeof head);
    free(buf);
    return rc;
}

ns_dist_tiles *ns_dist_tiles_new(int64_t tile_rows, int64_t tile, ns_tile_exchange *x, ns_error *err)
{
    int level = 0, *ub = NULL, found = 0;
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_SERIALIZED) {
        ns_error_set(err, NS_EINTERNAL, "rank %d: MPI gives thread level %d: the tile exchange needs "
                     "MPI_THREAD_SERIALIZED or more", ns_dist_rank(), level);
        return NULL;
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
    if (!found || tile_rows - 1 > (int64_t)*ub) {
        ns_error_set(err, NS_EINVAL, "%lld rows of tiles do not fit MPI's tags (at most %d)", (long long)tile_rows,
                     found ? *ub : 32767);
        return NULL;
    }
    ns_dist_tiles *d = calloc(1, sizeof *d);
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
    d->rows = tile_rows;
    d->tile = tile;
    pthread_mutex_init(&d->lock, NULL);
    memset(x, 0, sizeof *x);
    x->mine = mine;
    x->send = send_tile;
    x->recv = recv_tile;
    x->user = d;
    x->ranks = d->size;
    x->holder = d->rank == 0;
    /* test hook: NS_DIST_TEST_DIE_AFTER_TILES=N: rank NS_DIST_TEST_FAIL_RANK
     * (default 1) raises SIGKILL after sending its N-th tile */
    const char *die = getenv("NS_DIST_TEST_DIE_AFTER_TILES"), *who = getenv("NS_DIST_TEST_FAIL_RANK");
    if (die && d->rank == (who ? atoi(who) : 1))
        d->die_after = atoll(die);
    return d;
}

void ns_dist_tiles_resume(ns_dist_tiles *d, uint64_t units_done)
{
    d->resumed = (int64_t)units_done;
}

ns_err ns_dist_tiles_finish(ns_dist_tiles *d, ns_error *err)
{
    int bad = 0;
    pthread_mutex_lock(&d->lock);
    while (d->pending) {
        msg *m = d->pending;
        d->pending = m->next;
        bad |= MPI_Waitall(m->nreq, m->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS;
        msg_free(m);
    }
    pthread_mutex_unlock(&d->lock);
    return bad ? ns_error_set(err, NS_EINTERNAL, "rank %d: a tile send failed", d->rank) : NS_OK;
}

void ns_dist_tiles_bytes(const ns_dist_tiles *d, uint64_t *sent, uint64_t *received)
{
    *sent = d->sent;
    *received = d->received;
}

void ns_dist_tiles_free(ns_dist_tiles *d)
{
    if (!d)
        return;
    while (d->pending) {
        msg *m = d->pending;
        d->pending = m->next;
        for (int i = 0; i < m->nreq; i++) {
            MPI_Cancel(&m->req[i]);
            MPI_Request_free(&m->req[i]);
        }
        msg_free(m);
    }
    pthread_mutex_destroy(&d->lock);
    MPI_Comm_free(&d->comm);
    free(d);
}

#else /* one process: no exchange */

struct ns_dist_tiles {
    int unused;
};

ns_dist_tiles *ns_dist_tiles_new(int64_t tile_rows, int64_t tile, ns_tile_exchange *x, ns_error *err)
{
    (void)tile_rows;
    (void)tile;
    (void)x;
    ns_error_set(err, NS_EINVAL, "a tile exchange needs an MPI build (-DNS_MPI=ON)");
    return NULL;
}

void ns_dist_tiles_resume(ns_dist_tiles *d, uint64_t units_done)
{
    (void)d;
    (void)units_done;
}

ns_err ns_dist_tiles_finish(ns_dist_tiles *d, ns_error *err)
{
    (void)d;
    (void)err;
    return NS_OK;
}

void ns_dist_tiles_bytes(const ns_dist_tiles *d, uint64_t *sent, uint64_t *received)
{
    (void)d;
    *sent = *received = 0;
}

void ns_dist_tiles_free(ns_dist_tiles *d)
{
    free(d);
}

#endif
